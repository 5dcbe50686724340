"""The command line: every command, every format, every usage error."""

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

import pytest
from conftest import ROOT, solution

from grader import cli, exercises, grading, report, sandbox, solutions
from grader.exercises import MEMORY_FLOOR_MB
from grader.match import handin

WRONG_HELPERS = (solution("helpers") / "minimax_helpers.py").read_text().replace(
    "return 1\n", "return -1\n", 1)


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_every_exercise(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    listed = exercises.load_all()
    assert len(listed) >= 10  # the lesson's, the agent's, and every folder added since
    assert "agent" in [exercise.id for exercise in listed]  # graded by play, found as any
    for exercise in listed:
        assert exercise.id in out and all(name in out for name in exercise.files)


def test_the_agent_is_handed_out_and_its_solution_checked_by_play(capsys, tmp_path):
    code, out, _ = run(capsys, "stub", "agent", str(tmp_path))
    assert code == 0 and [p.name for p in tmp_path.iterdir()] == ["agent.py"]
    assert "check your work" not in out  # no self-check: it is graded by play
    [case] = solutions.by_play()
    assert (case.exercise, case.reference, case.full_marks) == ("agent", True, True)
    agent = exercises.load("agent")
    assert agent.by_play and agent.max_score == sum(t.points for t in agent.tests)


def test_stub_writes_and_never_overwrites(capsys, tmp_path):
    code, out, _ = run(capsys, "stub", "depth_limit", str(tmp_path))
    assert code == 0 and "minimax.py" in out
    written = (tmp_path / "minimax.py").read_text()
    assert "call_counter = 0" in written
    (tmp_path / "minimax.py").write_text("my work")
    code, _, err = run(capsys, "stub", "depth_limit", str(tmp_path))
    assert code == 2 and "already in" in err and "--force" in err
    assert (tmp_path / "minimax.py").read_text() == "my work"
    assert run(capsys, "stub", "depth_limit", str(tmp_path), "--force")[0] == 0
    assert (tmp_path / "minimax.py").read_text() == written


@pytest.mark.parametrize("fmt", ["json", "text", "gradescope", "junit"])
def test_grade_in_every_format(capsys, fmt):
    code, out, err = run(capsys, "grade", "--sandbox", "local", "--exercise", "helpers",
                         "--format", fmt, str(solution("helpers")))
    assert code == 0
    if fmt == "json":
        assert report.validate(json.loads(out))["score"] == 10
    elif fmt == "gradescope":
        assert json.loads(out)["score"] == 10
    elif fmt == "junit":
        assert ET.fromstring(out.split("?>", 1)[1]).get("failures") == "0"
    else:
        assert "10/10 points" in out


def test_a_wrong_submission_exits_zero_with_feedback(capsys, submission):
    folder = submission("minimax_helpers.py", WRONG_HELPERS)
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "helpers", str(folder))
    assert code == 0
    assert "Hint: Your terminal values are the wrong way round" in out


def test_output_file_gets_the_report_and_stdout_the_summary(capsys, tmp_path):
    target = tmp_path / "report.json"
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "decision",
                       "--format", "json", "-o", str(target), str(solution("decision")))
    assert code == 0 and out.startswith("10/10 points")
    assert report.validate(json.loads(target.read_text()))["exercise"] == "decision"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_a_zip_and_a_single_file_are_graded(capsys, tmp_path):
    archive = tmp_path / "hw.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.write(solution("gamestate") / "gamestate.py", "hw/gamestate.py")
    for path in (archive, solution("gamestate") / "gamestate.py"):
        code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "gamestate",
                           "--format", "json", str(path))
        assert code == 0 and json.loads(out)["score"] == 12


def test_a_rejected_submission_is_graded_zero_with_the_reason(capsys, submission):
    folder = submission("minimax_helpers.py", "")
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "helpers",
                       "--format", "json", str(folder))
    result = json.loads(out)
    assert code == 0 and result["score"] == 0
    assert result["message"] == ("0/10 points: the submission was rejected: "
                                 "minimax_helpers.py is empty")


def test_extra_files_are_ignored_and_listed(capsys, solution_copy):
    folder = solution_copy("helpers")
    (folder / "scratch.py").write_text("print('scratch')")
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "helpers",
                       "--format", "json", str(folder))
    result = json.loads(out)
    assert result["score"] == 10 and result["submission"]["ignored"] == ["scratch.py"]


def test_limits_from_the_command_line_reach_the_report(capsys):
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "helpers",
                       "--format", "json", "--call-seconds", "2", "--memory-mb", "600",
                       str(solution("helpers")))
    limits = json.loads(out)["sandbox"]["limits"]
    assert limits["call_seconds"] == 2 and limits["memory_mb"] == 600


@pytest.fixture
def nothing_graded(monkeypatch):
    """Fails a test that grades or picks a sandbox: refusals come first."""
    def graded(*args, **kwargs):
        raise AssertionError("graded, or a sandbox picked, before the refusal")
    for name in ("grade", "grade_alike", "open_sandbox", "isolated", "sandbox_for"):
        monkeypatch.setattr(grading, name, graded)
    monkeypatch.setattr(sandbox, "backend", graded)


@pytest.mark.parametrize("flags, says", [
    (["--memory-mb", "32"], f"--memory-mb 32 is below the {MEMORY_FLOOR_MB} MB the grader itself "
                            "needs to grade a correct submission (measured by "
                            "bench/grader_needs.py: "),
    (["--memory-mb", "-5"], "--memory-mb -5 is not above 0"),
    (["--call-seconds", "0"], "--call-seconds 0 is not above 0"),
    (["--total-seconds", "nan"], "--total-seconds nan is not a number of seconds"),
    (["--call-seconds", "8", "--test-seconds", "7"],
     "--call-seconds 8 is above --test-seconds 7: a call runs within its test"),
])
def test_limits_the_grader_cant_grade_with_are_a_usage_error(capsys, nothing_graded, flags, says):
    code, out, err = run(capsys, "grade", "--sandbox", "local", "--exercise", "helpers", *flags,
                         str(solution("helpers")))
    assert code == 2 and out == ""
    assert err.startswith(f"minimax-grader: error: {says}") and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["grade", "--sandbox", "local", "--exercise", "helpers", str(solution("helpers"))],
    ["batch", "--sandbox", "local", "--exercise", "helpers", str(solution("helpers")), "-o",
     "OUT"],
    ["check-solutions", "--solutions-only"],
])
def test_an_exercise_toml_with_bad_limits_is_a_usage_error(capsys, monkeypatch, nothing_graded,
                                                           tmp_path, argv):
    # Floors above every exercise's memory limit: each exercise.toml is now bad.
    monkeypatch.setattr(exercises.Limits, "FLOORS",
                        {**exercises.Limits.FLOORS, "memory_mb": (10 ** 6, "a million MB")})
    code, out, err = run(capsys, *[str(tmp_path / "out") if a == "OUT" else a for a in argv])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "exercise.toml: [limits] memory_mb = 512 is below a million MB" in err
    assert not (tmp_path / "out").exists()


@pytest.fixture
def no_engine(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")


def test_docker_unavailable_is_an_error_report_never_a_zero(capsys, no_engine):
    code, out, _ = run(capsys, "grade", "--sandbox", "docker", "--exercise", "helpers",
                       "--format", "json", str(solution("helpers")))
    result = json.loads(out)
    assert code == 0 and result["status"] == "error" and result["score"] is None
    assert "no Docker engine answers" in result["message"]
    assert "--sandbox local" in result["message"]


def test_auto_falls_back_to_local_with_a_warning(capsys, no_engine):
    code, out, err = run(capsys, "grade", "--exercise", "helpers", "--format", "json",
                         str(solution("helpers")))
    assert code == 0 and json.loads(out)["sandbox"]["backend"] == "local"
    assert err.count("\n") == 1 and "grading in the local sandbox" in err
    assert ("a bubblewrap boundary" in err) == sandbox.local_is_boundary()


def never_starting(monkeypatch) -> list[int]:
    """Grading by play made to find an agent that can't start: the openings each
    grading was asked to play, in a list that fills as it is."""
    played: list[int] = []

    def no_start(source, config, sandbox_name, store, jobs=1):
        played.append(config.settings.openings)
        raise handin.points.NoStart("agent.py defines no Agent")

    monkeypatch.setattr(handin.points, "grade", no_start)
    return played


@pytest.mark.parametrize("quick, openings", [(True, handin.QUICK["openings"]),
                                               (False, handin.config().settings.openings)])
def test_grade_quick_plays_a_self_checks_openings_and_the_grade_the_exercises(
        capsys, monkeypatch, tmp_path, quick, openings):
    played = never_starting(monkeypatch)
    (tmp_path / "agent.py").write_text("x = 1\n")
    code, out, _ = run(capsys, "grade", "--exercise", "agent", "--sandbox", "local",
                       *(["--quick"] if quick else []), str(tmp_path))
    assert code == 0 and played == [openings] and "defines no Agent" in out
    assert handin.QUICK["openings"] < handin.config().settings.openings


@pytest.mark.parametrize("argv, says", [
    (["grade", "--exercise", "nope", "x"], "unknown exercise 'nope'; the exercises are: "
                                          + ", ".join(exercises.known())),
    (["grade", "--exercise", "helpers", "/no/such/path"], "no such file or folder"),
    (["grade", "--exercise", "helpers", str(ROOT / "pyproject.toml")], "give a folder"),
    (["grade", "--exercise", "helpers", "-o", "/no/such/dir/r.json", str(solution("helpers"))],
     "its folder does not exist"),
    (["grade", "--exercise", "helpers", "--quick", str(solution("helpers"))],
     "--quick is for an agent graded by play"),
    (["stub", "nope"], "unknown exercise 'nope'"),
    (["check-solutions", "--solutions", "/no/such/dir"], "--solutions /no/such/dir: no such"),
    (["check-solutions", "--solutions", str(ROOT / "tests")], "name(s) no exercise"),
])
def test_usage_errors_exit_2_with_a_clear_message(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert code == 2 and says in err and out == ""


@pytest.mark.parametrize("argv", [["grade", "x"], ["grade", "--exercise", "helpers", "--format",
                                                    "pdf", "x"], ["frobnicate"], []])
def test_argument_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as caught:
        cli.main(argv)
    assert caught.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_check_solutions_passes_on_reference_solutions(capsys, tmp_path):
    # Two of them, of two games: tests/test_corpus.py grades every reference
    # solution (the same judge), and tests/test_wheel.py runs this command on all.
    for name in ("helpers", "nim_negamax"):
        shutil.copytree(solution(name), tmp_path / name / "solution")
    code, out, _ = run(capsys, "check-solutions", "--solutions-only", "--solutions",
                       str(tmp_path))
    assert code == 0 and "0 surprise(s)" in out
    assert "solution of helpers" in out and "solution of nim_negamax" in out


def test_the_console_entry_point_runs():
    done = subprocess.run([sys.executable, "-m", "grader", "--version"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.startswith("minimax-grader ")


def test_check_solutions_exits_1_on_a_surprise(capsys, tmp_path):
    wrong = tmp_path / "solutions" / "helpers" / "solution"
    wrong.mkdir(parents=True)
    (wrong / "minimax_helpers.py").write_text(WRONG_HELPERS)
    code, out, _ = run(capsys, "check-solutions", "--solutions", str(tmp_path / "solutions"),
                       "--solutions-only")
    assert code == 1 and "1 surprise(s)" in out and "expected full marks" in out


def test_check_solutions_takes_an_instructor_s_folders(capsys, tmp_path, monkeypatch):
    # Outside a checkout, with the instructor's solution and a corpus of two wrong
    # cases: one expected right, one whose expected failures name no test.
    monkeypatch.chdir(tmp_path)
    shutil.copytree(solution("helpers"), tmp_path / "mine" / "helpers" / "solution")
    for name, expect in [("flipped", "full_marks = true\n"),
                         ("misnamed", 'full_marks = false\nfailing = ["test_min_valu"]\n')]:
        case = tmp_path / "mine" / "helpers" / "corpus" / name
        case.mkdir(parents=True)
        (case / "minimax_helpers.py").write_text(WRONG_HELPERS)
        (case / "expect.toml").write_text(expect)
    code, out, _ = run(capsys, "check-solutions", "--solutions", "mine")
    assert code == 1 and "2 surprise(s)" in out
    assert "solution of helpers" in out and "helpers/flipped" in out
    [misnamed] = [case for case in solutions.built_in(root=tmp_path / "mine")
                  if case.path.name == "misnamed"]
    report = grading.grade(exercises.load("helpers"), misnamed.path, grading.open_sandbox(
        "local"), exercises.load("helpers").limits)
    assert any("failing names test_min_valu, which the suite does not have" in problem
               for problem in solutions.problems_of(misnamed, report))


def test_an_option_is_never_read_as_the_abbreviation_of_another(capsys):
    with pytest.raises(SystemExit) as caught:
        cli.main(["stub", "--exercise", "helpers"])  # --exercises DIR is stub's option
    assert caught.value.code == 2
    assert "unrecognized arguments: --exercise" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["serve", "worker"])
def test_the_service_without_its_extra_says_how_to_install_it(capsys, monkeypatch, tmp_path,
                                                               command):
    found = cli.importlib.util.find_spec
    monkeypatch.setattr(cli.importlib.util, "find_spec",
                        lambda name: None if name == "celery" else found(name))
    extra = ["--broker", "redis://127.0.0.1:1/0", "--database", "sqlite://"] \
        if command == "worker" else []
    code, out, err = run(capsys, command, "--data", str(tmp_path / "data"), *extra)
    assert code == cli.USAGE_ERROR
    assert "needs celery" in err and "minimax-grader[service]" in err
    assert not (tmp_path / "data").exists()  # refused before anything was made


@pytest.fixture
def own_exercises(tmp_path, monkeypatch):
    """An instructor's folder of exercises: a copy of helpers as ``my_helpers``, and
    beside it, in ``answers/``, its solution and its corpus. The added folders are
    undone after the test."""
    monkeypatch.setenv(exercises.ADDED, "")
    folder = tmp_path / "mine"
    shutil.copytree(exercises.ROOT / "helpers", folder / "my_helpers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(solutions.reference_folder("helpers").parent,
                    tmp_path / "answers" / "my_helpers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_list_shows_an_added_exercise_beside_the_built_in_ones(capsys, own_exercises):
    code, out, _ = run(capsys, "list", "--exercises", str(own_exercises))
    assert code == 0 and "my_helpers" in out and "nim_negamax" in out
    assert exercises.load("my_helpers").folder == own_exercises / "my_helpers"


def test_a_folder_of_exercises_given_twice_is_added_once(capsys, own_exercises):
    code, out, err = run(capsys, "list", "--exercises", str(own_exercises),
                         "--exercises", str(own_exercises))
    assert code == 0 and out.count("my_helpers") == 1, err
    assert exercises.added() == [own_exercises]


def test_check_solutions_takes_an_added_exercise_s_solution_and_corpus(own_exercises):
    exercises.add(own_exercises)
    answers = own_exercises.parent / "answers"
    args = cli.parser().parse_args(["check-solutions", "--solutions", str(answers)])
    added = cli._check_cases(args)
    assert {case.exercise for case in added} == {"my_helpers"}  # no built-in case
    assert added[0].reference and added[0].path == answers / "my_helpers" / "solution"
    assert {case.path.name for case in added[1:]} == {
        case.path.name for case in solutions.built_in() if case.exercise == "helpers"} - {
        "solution"}


def test_an_added_exercise_s_folder_holds_no_solution(own_exercises):
    shutil.copytree(own_exercises.parent / "answers" / "my_helpers" / "solution",
                    own_exercises / "my_helpers" / "solution")
    with pytest.raises(exercises.BadExercise, match="keep its solution in a folder of solutions"):
        exercises.add(own_exercises)
    assert exercises.added() == []


@pytest.mark.parametrize("flags, says", [
    (["--solutions", "nowhere"], "--solutions nowhere: no such folder"),
    (["--solutions", "."], "name(s) no exercise"),
])
def test_check_solutions_says_what_is_wrong_with_its_folder(capsys, flags, says):
    code, out, err = run(capsys, "check-solutions", *flags)
    assert code == 2 and says in err


def hints_file(folder, text, name="my_helpers", link_to=None):
    """Give the added exercise ``name`` (a copy of my_helpers, made if need be) a
    hints.toml holding ``text``, or linked to ``link_to``."""
    if not (folder / name).exists():
        shutil.copytree(folder / "my_helpers", folder / name)
    path = folder / name / "hints.toml"
    if link_to:
        path.symlink_to(link_to)
    else:
        path.write_text(text + "\n", encoding="utf-8")


def played(folder, line, instead):
    """Add beside my_helpers a copy of the agent exercise, its match.toml's ``line``
    written ``instead``."""
    shutil.copytree(exercises.ROOT / "agent", folder / "my_agent",
                    ignore=shutil.ignore_patterns("__pycache__"))
    toml = folder / "my_agent" / "match.toml"
    assert line in toml.read_text()
    toml.write_text(toml.read_text().replace(line, instead))


@pytest.mark.parametrize("spoil, says", [
    (lambda folder: (folder / "my_helpers" / "exercise.toml").unlink(),
     "my_helpers: no exercise.toml nor match.toml, so not an exercise folder"),
    (lambda folder: shutil.copy(exercises.ROOT / "agent" / "match.toml", folder / "my_helpers"),
     "my_helpers: an exercise is graded by its suite (exercise.toml) or by play (match.toml), "
     "not both"),
    (lambda folder: (folder / "my_helpers" / "exercise.toml").write_text("title = \n"),
     "exercise.toml: not TOML"),
    (lambda folder: (folder / "my_helpers").rename(folder / "helpers"),
     "two exercises are called 'helpers'"),
    (lambda folder: (folder / "my_helpers").rename(folder / "My-Helpers"),
     "an exercise's id, its folder's name, is made of lower-case letters"),
    (lambda folder: shutil.rmtree(folder), "no such folder"),
    # an exercise graded by play whose match.toml its games can't be played by
    (lambda folder: played(folder, "cpu_seconds = 0.25", "cpu_seconds = 0"),
     "unknown baselines [] or limits out of range"),
    (lambda folder: played(folder, 'baseline = "minimax"', 'baseline = "oracle"'),
     "unknown baselines ['oracle']"),
    (lambda folder: played(folder, 'file = "agent.py"', ""), "match.toml: KeyError('file')"),
    # its own hints: a shared id reworded outside [reworded], a rewording of no
    # shared id, an id of a built-in exercise's own, an id of two added exercises
    (lambda folder: hints_file(folder, 'stub = "Again."'),
     "contracts/hints.toml too; to word it for this exercise alone, name it under [reworded]"),
    (lambda folder: hints_file(folder, '[reworded]\nmine = "Mine."'),
     "[reworded] names 'mine', no shared mistake"),
    (lambda folder: hints_file(folder, 'moves_not_list = "Mine."'),
     "exercises/gamestate/hints.toml too"),
    (lambda folder: [hints_file(folder, 'mine = "Mine."', name)
                     for name in ("my_helpers", "my_other_helpers")],
     "mistake 'mine' is named in"),
    # a link inside it: an exercise's folder, or a file in one
    (lambda folder: (folder / "linked").symlink_to(folder / "my_helpers"),
     "linked: a link, which an added folder may not hold"),
    (lambda folder: hints_file(folder, "", link_to=exercises.ROOT / "gamestate" / "hints.toml"),
     "hints.toml: a link, which an added folder may not hold"),
])
def test_a_bad_folder_of_exercises_is_a_usage_error(capsys, own_exercises, spoil, says):
    spoil(own_exercises)
    code, out, err = run(capsys, "list", "--exercises", str(own_exercises))
    assert code == 2 and out == "" and says in err and err.count("\n") == 1
    assert exercises.added() == []  # nothing of it is kept


def test_check_solutions_plays_the_agent_s_reference_when_told_to():
    def labels(*flags):
        args = cli.parser().parse_args(["check-solutions", "--solutions-only", *flags])
        return [case.label for case in cli._check_cases(args)]

    assert "solution of agent" in labels("--play")
    assert "solution of agent" not in labels()
    suites = exercises.known(kind=exercises.SUITE)
    assert {f"solution of {name}" for name in suites} <= set(labels())


def test_grade_grades_the_agent_by_play(capsys, monkeypatch, tmp_path):
    """`grade --exercise agent` plays the match (stood in for here: it takes minutes)."""
    played = []

    def match(exercise, files, layout, jobs=1, quick=False, ignored=()):
        played.append((exercise.id, sorted(files), layout.backend, quick))
        raise RuntimeError("the match stood in for")

    monkeypatch.setattr(handin, "grade", match)
    agent = tmp_path / "agent.py"
    agent.write_text("class Agent:\n    pass\n")
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercise", "agent",
                       "--format", "json", str(agent))
    assert code == 0 and played == [("agent", ["agent.py"], "local", False)]
    assert "the match stood in for" in json.loads(out)["message"]


def test_an_added_folder_with_a_match_toml_is_an_exercise_graded_by_play_by_it(
        capsys, monkeypatch, tmp_path):
    monkeypatch.setenv(exercises.ADDED, "")
    mine = tmp_path / "mine" / "my_agent"
    shutil.copytree(exercises.ROOT / "agent", mine, ignore=shutil.ignore_patterns("__pycache__"))
    toml = mine / "match.toml"
    toml.write_text(toml.read_text().replace("openings = 10", "openings = 3"))
    played = never_starting(monkeypatch)
    (tmp_path / "agent.py").write_text("x = 1\n")
    code, out, _ = run(capsys, "grade", "--exercises", str(mine.parent), "--exercise",
                       "my_agent", "--sandbox", "local", str(tmp_path / "agent.py"))
    assert code == 0 and played == [3] and "defines no Agent" in out  # its own match.toml
    exercise = exercises.load("my_agent")
    assert exercise.by_play and exercise.folder == mine and exercise.defined_by == toml
    assert "my_agent" in exercises.known(kind=exercises.PLAY)


def test_the_gradescope_package_refuses_an_exercise_graded_by_play(capsys, tmp_path):
    code, out, err = run(capsys, "gradescope-package", "--exercise", "agent", "-o",
                         str(tmp_path / "autograder.zip"))
    assert code == 2 and out == "" and not (tmp_path / "autograder.zip").exists()
    assert "agent is graded by play, and the Gradescope package grades an exercise by its " \
           "suite: choose one graded by a suite (alphabeta, " in err


def test_an_added_exercise_is_graded_and_checked(capsys, own_exercises):
    code, out, _ = run(capsys, "grade", "--sandbox", "local", "--exercises", str(own_exercises),
                       "--exercise", "my_helpers", "--format", "json",
                       str(own_exercises.parent / "answers" / "my_helpers" / "solution"))
    assert code == 0 and json.loads(out)["score"] == json.loads(out)["max_score"] == 10
    mine = own_exercises.parent / "answers"
    code, out, _ = run(capsys, "check-solutions", "--solutions-only", "--solutions", str(mine))
    assert code == 0 and "solution of my_helpers" in out and "0 surprise(s)" in out


def test_starting_the_command_line_leaves_out_what_only_a_report_or_a_batch_needs():
    """The schema's validator and the batch's progress bar are imported when used
    (a grading makes its validator while its sandbox runs), not by every start."""
    later = ("jsonschema", "rich.progress")
    code = f"import sys, grader.cli; print([m for m in {later!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "[]"
