"""An instructor's own exercise, as docs/authoring.md tells one to write it:
its worked example, negamax on mini-isolation (``tests/examples/``, none of
the lesson's five kinds), checks with no surprise; its models are the mistakes they
are named for; its own hints.toml names a new mistake and rewords shared
ones for its tests alone, on the host and in the local sandbox; and a linked
folder of exercises is followed to where it lies."""

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

from grader import cli, exercises, installs
from grader.contracts import hints, protocol
from grader.games import isolation

EXAMPLES = Path(__file__).resolve().parent / "examples"
EXERCISES, SOLUTIONS = EXAMPLES / "exercises", EXAMPLES / "solutions"
NEGAMAX = "isolation_negamax"
CORPUS = SOLUTIONS / NEGAMAX / "corpus"
OWN = hints._read(EXERCISES / NEGAMAX / hints.NAME)  # (its new ids, its rewordings)


@pytest.fixture(autouse=True)
def none_added(monkeypatch):
    """The folders a test adds are undone after it."""
    monkeypatch.setenv(exercises.ADDED, "")


def grade(capsys, folder, submission):
    code = cli.main(["grade", "--sandbox", "local", "--exercises", str(folder),
                     "--exercise", NEGAMAX, "--format", "json", str(submission)])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def failing(report):
    return {t["name"]: t for t in report["tests"] if t["status"] != "passed"}


def test_the_worked_example_checks_with_no_surprise(capsys):
    code = cli.main(["check-solutions", "--sandbox", "local", "--jobs", "2",
                     "--exercises", str(EXERCISES), "--solutions", str(SOLUTIONS)])
    out = capsys.readouterr().out
    assert code == 0 and "0 surprise(s)" in out
    # the reference, two correct styles and four mistakes
    assert out.count("as expected") == 1 + len(list(CORPUS.iterdir())) == 7


def test_its_own_mistake_is_named_and_a_shared_one_told_in_its_words(capsys):
    new, reworded = OWN
    report = grade(capsys, EXERCISES, CORPUS / "negation_missing")
    assert failing(report)["test_values"]["mistakes"] == ["negation_missing"]
    assert failing(report)["test_values"]["hint"] == new["negation_missing"]
    report = grade(capsys, EXERCISES, CORPUS / "stuck_player_wins")
    told = {t["hint"] for t in failing(report).values()}
    assert told == {reworded["flipped_utilities"]} != {hints.HINTS["flipped_utilities"]}
    # its words are its own: a built-in exercise keeps the shared ones
    assert exercises.load("helpers").hints()["flipped_utilities"] == \
        hints.HINTS["flipped_utilities"]
    assert "negation_missing" not in exercises.load("helpers").hints()


def test_a_mistake_its_exercise_does_not_know_is_the_grader_s_fault(capsys, tmp_path):
    shutil.copytree(EXERCISES, tmp_path / "mine", ignore=shutil.ignore_patterns("__pycache__"))
    suite = tmp_path / "mine" / NEGAMAX / "suite" / f"test_{NEGAMAX}.py"
    suite.write_text(suite.read_text("utf-8").replace('"negation_missing"', '"made_up"'),
                     "utf-8")
    report = grade(capsys, tmp_path / "mine", CORPUS / "negation_missing")
    assert report["unchecked"] == ["test_values"]  # no charge, and the instructor told
    assert "unknown mistakes ['made_up']" in failing(report)["test_values"]["message"]
    assert set(failing(report)) == {"test_values"}  # the other tests stand


def test_a_linked_folder_of_exercises_is_followed_to_where_it_lies(capsys, tmp_path):
    (tmp_path / "course").symlink_to(EXERCISES, target_is_directory=True)
    report = grade(capsys, tmp_path / "course", SOLUTIONS / NEGAMAX / "solution")
    assert report["status"] == "graded" and report["score"] == report["max_score"] == 8
    assert exercises.added() == [EXERCISES]
    judged = dict(installs.judge_files())
    assert judged[f"exercises/{NEGAMAX}/hints.toml"] == EXERCISES / NEGAMAX / hints.NAME


def written_negamax(state, depth, calls, mistake=None):
    """negamax as a student writes it, with ``mistake`` (one of the example's
    models), keeping the positions it calls terminal_test on in ``calls``."""
    if mistake == "cutoff_before_terminal" and depth <= 0:
        return 0
    calls[isolation.label(state)] += 1
    if isolation.terminal(state):
        return 1 if mistake == "flipped_utilities" else -1
    if depth <= 0:
        return 0
    deeper = depth if mistake == "depth_not_decremented" else depth - 1
    sign = 1 if mistake == "negation_missing" else -1
    return max(sign * written_negamax(isolation.play(state, move), deeper, calls, mistake)
               for move in isolation.legal_moves(state))


def test_the_example_s_models_are_the_mistakes_they_are_named_for():
    spec = importlib.util.spec_from_file_location(
        "example_suite", EXERCISES / NEGAMAX / "suite" / f"test_{NEGAMAX}.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    for mistake, flaws in [(None, None), *suite.MODELS]:
        for state, _ in isolation.positions():
            for depth in range(7):
                calls = protocol.Tested()
                value = written_negamax(state, depth, calls, mistake)
                assert suite.negamax(flaws, state, depth) == (value, calls), (mistake, depth)


def test_what_authoring_md_quotes_of_the_example_is_in_its_files():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "authoring.md").read_text("utf-8")
    example = doc[doc.index("## Worked example: an exercise of your own"):]
    quoted = re.findall(r"```python\n(.*?)```", example, re.DOTALL)
    files = [path.read_text("utf-8") for path in EXERCISES.rglob("*.py")]
    pieces = [piece for block in quoted for piece in block.split("\n\n\n")]
    assert len(pieces) >= 5
    assert [piece for piece in pieces if not any(piece.strip("\n") in text for text in files)] == []
