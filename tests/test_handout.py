"""`stub`: the starter, the modules the course provides and a self-check, which run
outside the grader; nothing is overwritten without --force."""

import shutil
import subprocess
import sys

import pytest
from conftest import corpus, solution

from grader import cli, exercises, solutions
from grader.contracts.provided import source

EXPECTED = {
    "gamestate": ["check_gamestate.py", "gamestate.py", "selfcheck.py"],
    "helpers": ["check_helpers.py", "gamestate.py", "minimax_helpers.py", "selfcheck.py"],
    "decision": ["check_decision.py", "gamestate.py", "minimax.py", "minimax_helpers.py",
                 "selfcheck.py"],
    "depth_limit": ["check_depth_limit.py", "gamestate.py", "minimax.py", "selfcheck.py"],
    "alphabeta": ["alphabeta.py", "check_alphabeta.py", "gamestate.py", "selfcheck.py"],
    "iterative_deepening": ["check_iterative_deepening.py", "deepening.py", "gamestate.py",
                            "selfcheck.py"],
    "tic_tac_toe": ["check_tic_tac_toe.py", "selfcheck.py", "tictactoe.py"],
    "tic_tac_toe_alphabeta": ["check_tic_tac_toe_alphabeta.py", "selfcheck.py", "tictactoe.py"],
    "nim_negamax": ["check_nim_negamax.py", "negamax.py", "nim.py", "selfcheck.py"],
    "kayles_helpers": ["check_kayles_helpers.py", "kayles.py", "minimax_helpers.py",
                       "selfcheck.py"],
    "kayles_decision": ["check_kayles_decision.py", "kayles.py", "minimax.py",
                        "minimax_helpers.py", "selfcheck.py"],
    "kayles_depth_limit": ["check_kayles_depth_limit.py", "kayles.py", "minimax.py",
                           "selfcheck.py"],
    "kayles_alphabeta": ["alphabeta.py", "check_kayles_alphabeta.py", "kayles.py",
                         "selfcheck.py"],
    "kayles_iterative_deepening": ["check_kayles_iterative_deepening.py", "deepening.py",
                                   "kayles.py", "selfcheck.py"],
}


def stub(capsys, *argv):
    code = cli.main(["stub", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def self_check(folder, exercise):
    """Run the self-check as a student would, with nothing of the grader importable
    (-I -S: no site-packages, no environment)."""
    return subprocess.run([sys.executable, "-I", "-S", f"check_{exercise}.py"], cwd=folder,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("exercise", sorted(EXPECTED))
def test_stub_writes_the_starter_the_provided_modules_and_a_self_check(capsys, tmp_path,
                                                                       exercise):
    code, out, _ = stub(capsys, exercise, tmp_path)
    assert code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == EXPECTED[exercise]
    assert out.splitlines()[-1] == (f"check your work as you go with: python "
                                    f"{tmp_path / f'check_{exercise}.py'}")
    for name in exercises.load(exercise).provides:  # what the sandbox gives, to the byte
        assert (tmp_path / f"{name}.py").read_bytes() == source(name).read_bytes()


@pytest.mark.parametrize("exercise", sorted(EXPECTED))
def test_the_starter_runs_outside_the_grader_and_the_self_check_fails_it(capsys, tmp_path,
                                                                         exercise):
    stub(capsys, exercise, tmp_path)
    done = self_check(tmp_path, exercise)
    assert done.returncode == 1 and done.stderr == ""
    assert "FAILED" in done.stdout and "could not be imported" not in done.stdout
    facts = sum(line.startswith("  ") for line in done.stdout.splitlines())
    assert not done.stdout.splitlines()[-1].startswith(f"{facts} of {facts}")


@pytest.mark.parametrize("exercise", sorted(EXPECTED))
def test_the_self_check_passes_the_reference_solution(capsys, tmp_path, exercise):
    stub(capsys, exercise, tmp_path)
    for path in solution(exercise).iterdir():
        shutil.copyfile(path, tmp_path / path.name)
    done = self_check(tmp_path, exercise)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    facts = [line for line in lines if line.startswith("  ")]
    assert facts and all(line.startswith("  ok ") for line in facts)
    assert lines[-1].startswith(f"{len(facts)} of {len(facts)} hold. This is no grade:")


def full_marks_cases():
    return [pytest.param(case, id=case.label) for case in solutions.built_in()
            if case.full_marks and not case.reference
            and (exercises.load(case.exercise).folder / "check.py").is_file()]


@pytest.mark.parametrize("case", full_marks_cases())
def test_the_self_check_never_fails_what_the_grader_gives_full_marks(capsys, tmp_path, case):
    # It checks the lesson's facts as the grader does: truthy values, moves in any
    # order, terminal tests counted from outside (not by call_counter).
    stub(capsys, case.exercise, tmp_path)
    for name in exercises.load(case.exercise).files:
        shutil.copyfile(case.path / name, tmp_path / name)
    done = self_check(tmp_path, case.exercise)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("exercise", "case", "file", "said"), [
    ("helpers", "flipped_utilities", "minimax_helpers.py",
     "  FAILED  min_value: a terminal state is worth +1, max_value: -1\n"
     "          (min_value, max_value) of it: expected (1, -1), got (-1, 1)"),
    # never "3 of 3 hold" for a search that returns the move of an unfinished depth
    ("iterative_deepening", "unfinished_depth_move", "deepening.py",
     "  FAILED  after (1, 0), with 71 ticks: (1, 1), depth 3's move, not unfinished depth 4's\n"
     "          get_action after the move (1, 0) with 71 ticks: expected (1, 1), got (0, 0)"),
    ("kayles_helpers", "flipped_utilities", "minimax_helpers.py",
     "  FAILED  min_value: a terminal state is worth +1, max_value: -1\n"
     "          (min_value, max_value) of it: expected (1, -1), got (-1, 1)"),
    ("kayles_iterative_deepening", "unfinished_depth_move", "deepening.py",
     "  FAILED  after (0, 1), with 106 ticks: (3, 4), depth 3's move, not unfinished depth 4's\n"
     "          get_action after the move (0, 1) with 106 ticks: expected (3, 4), got (2, 2)"),
    # a search that never reads its clock is stopped, not waited for
    ("iterative_deepening", "clock_never_read", "deepening.py",
     "  FAILED  with 250 ticks, at most 250 terminal tests\n"
     "          stopped after 100,000 terminal tests: the search does not end on its clock "
     "(is time_left read in min_value and max_value?)"),
    ("kayles_iterative_deepening", "clock_never_read", "deepening.py",
     "  FAILED  with 2000 ticks, at most 2000 terminal tests\n"
     "          stopped after 100,000 terminal tests: the search does not end on its clock "
     "(is time_left read in min_value and max_value?)"),
])
def test_the_self_check_names_a_known_mistake_s_fact(capsys, tmp_path, exercise, case, file,
                                                     said):
    stub(capsys, exercise, tmp_path)
    shutil.copyfile(corpus(exercise) / case / file, tmp_path / file)
    done = self_check(tmp_path, exercise)
    assert done.returncode == 1
    assert said in done.stdout


def test_a_file_that_can_t_be_imported_is_said_once(capsys, tmp_path):
    stub(capsys, "decision", tmp_path)
    (tmp_path / "minimax.py").write_text("def minimax_decision(gameState)\n")
    done = self_check(tmp_path, "decision")
    assert done.returncode == 1
    assert done.stdout.splitlines()[1].startswith(
        "  your file could not be imported: raised SyntaxError")


def test_the_self_check_holds_its_facts_and_selfcheck_py_only_runs_them(capsys, tmp_path):
    stub(capsys, "helpers", tmp_path)
    (tmp_path / "check_helpers.py").rename(tmp_path / "mycheck.py")  # renamed, it still checks
    done = subprocess.run([sys.executable, "-I", "-S", "mycheck.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "FAILED  min_value: a terminal state" in done.stdout
    alone = subprocess.run([sys.executable, "-I", "-S", "selfcheck.py"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
    assert alone.returncode == 1 and "run the check_<exercise>.py beside" in alone.stderr


@pytest.mark.parametrize("existing", ["minimax.py", "gamestate.py", "minimax_helpers.py",
                                      "check_decision.py"])
def test_stub_never_overwrites_any_file_it_writes_without_force(capsys, tmp_path, existing):
    (tmp_path / existing).write_text("my work")
    code, out, err = stub(capsys, "decision", tmp_path)
    assert code == 2 and out == ""
    assert err == (f"minimax-grader: error: {existing} already in {tmp_path}; nothing was "
                   "written (use --force to overwrite)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [existing]
    assert (tmp_path / existing).read_text() == "my work"
    assert stub(capsys, "decision", tmp_path, "--force")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == EXPECTED["decision"]
    assert (tmp_path / existing).read_text() != "my work"


def test_a_link_in_the_way_is_replaced_never_written_through(capsys, tmp_path):
    elsewhere = tmp_path / "elsewhere.py"
    elsewhere.write_text("not yours to overwrite")
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "gamestate.py").symlink_to(elsewhere)
    assert stub(capsys, "helpers", tmp_path / "work")[0] == 2  # a link counts as a file
    assert stub(capsys, "helpers", tmp_path / "work", "--force")[0] == 0
    assert not (tmp_path / "work" / "gamestate.py").is_symlink()
    assert elsewhere.read_text() == "not yours to overwrite"


def test_stub_into_a_file_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "afile").write_text("")
    code, _, err = stub(capsys, "helpers", tmp_path / "afile")
    assert code == 2 and "could not write the starter files" in err
