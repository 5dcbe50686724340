"""Every check is total: whatever a student's function returns is a verdict.

Each reference solution is handed in with its graded functions made to
return odd values (tests/odd_returns.py: lists where tuples are due, sets,
dicts, NaN, huge and unprintable values, deep nests, objects with hostile
``__eq__`` / ``__hash__`` / ``__repr__``...), drawn by hypothesis. The report
must be graded and valid, no test may be a grader fault or show the
grader's traceback, and every test that judges a function that answered
oddly must lose its points.
"""

import re
import shutil
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from conftest import ROOT, grade, solution
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from grader import exercises, intake
from grader.contracts import events
from grader.harness.runtime.plugin import NOT_CHECKED
from grader.sandbox import local, staging

ODD_RETURNS = ROOT / "tests" / "odd_returns.py"
# exercise -> {a graded function: the tests that judge what it returns}
JUDGED = {
    "gamestate": {
        "GameState.get_legal_moves": ("test_start_position", "test_first_moves",
                                      "test_legal_moves_everywhere", "test_slides_are_blocked",
                                      "test_moves_are_a_list_of_tuples"),
        "GameState.forecast_move": ("test_first_moves", "test_legal_moves_everywhere",
                                    "test_slides_are_blocked", "test_forecast_returns_new_state",
                                    "test_forecast_leaves_parent_unchanged")},
    "helpers": {"terminal_test": ("test_terminal_test",),
                "min_value": ("test_min_value_empty_board", "test_min_value"),
                "max_value": ("test_max_value",)},
    "decision": {"minimax_decision": ("test_empty_board", "test_every_position",
                                      "test_larger_board")},
    "depth_limit": {"minimax_decision": ("test_best_moves", "test_larger_board"),
                    "min_value": ("test_cutoff_returns_zero",),
                    "max_value": ("test_cutoff_returns_zero",)},
    "alphabeta": {"alpha_beta_search": ("test_best_moves",),
                  "min_value": ("test_cutoff_returns_zero",),
                  "max_value": ("test_cutoff_returns_zero",)},
    "iterative_deepening": {"get_action": ("test_deepest_finished_depth", "test_fallback_move")},
    "tic_tac_toe": {"Game.is_end": ("test_is_end",), "Game.max": ("test_max",),
                    "Game.min": ("test_min",)},
    "tic_tac_toe_alphabeta": {"Game.max_alpha_beta": ("test_max_alpha_beta",),
                              "Game.min_alpha_beta": ("test_min_alpha_beta",)},
    "nim_negamax": {"minimax": ("test_depth_zero", "test_game_over", "test_moves_and_ratings",
                                "test_other_games", "test_stuck_player_passes")},
}
# Examples drawn a run, besides the known ones (``KNOWN``): the first has
# every graded function of the exercise meet every kind of odd value.
EXAMPLES = 1
ATOMS = ("nan", "inf", "half", "huge", "giant", "complex", "bytes", "dict", "hostile", "pair",
         "number", "looped", "long_list", "long_text")
WRAPS = ("list", "one_tuple", "set", "dict", "nested")
# Where a list [x, y] is taken for a tuple: moves in the rules tests of
# gamestate (its type has a test of its own), (move, rating) in Nim.
LISTS_TAKEN = ("gamestate", "nim_negamax")


def recipes(exercise_id):
    """Every recipe, in an order drawn: the n-th outside call takes the n-th
    (cycling), so that one graded run meets every kind of odd value."""
    wraps = WRAPS if exercise_id in LISTS_TAKEN else (*WRAPS, "as_list")
    every = [("atom", atom) for atom in ATOMS] + [("wrap", kind) for kind in wraps] + [
        ("part", at, kind) for at in range(3) for kind in (*wraps, *ATOMS)]
    return st.permutations(every)


def odd_cases(exercise_id):
    """(the functions made odd, the recipes): all functions first, then fewer."""
    functions = sorted(JUDGED[exercise_id])
    spared = st.sets(st.sampled_from(functions), max_size=len(functions) - 1)
    return st.tuples(spared.map(lambda kept: sorted(set(functions) - kept)),
                     recipes(exercise_id))


# The odd answers of issue reports, tried first in every run: a move as a
# list, a row in a list or a set.
KNOWN = {
    "decision": (["minimax_decision"], [("wrap", "as_list")]),
    "iterative_deepening": (["get_action"], [("wrap", "as_list")]),
    "tic_tac_toe": (["Game.max", "Game.min"], [("part", 1, "list"), ("part", 1, "set")]),
    "tic_tac_toe_alphabeta": (["Game.max_alpha_beta", "Game.min_alpha_beta"],
                              [("part", 1, "set"), ("part", 1, "list")]),
}
# A traceback through the grader's own files, or the words of a grader fault.
GRADER_TRACE = re.compile(r'File "[^"]*grader/|internal grader error')


def odd_submission(exercise_id, folder, functions, recipes):
    """The reference of ``exercise_id`` in ``folder``, its ``functions`` made odd."""
    [student_file] = exercises.load(exercise_id).files
    source = (solution(exercise_id) / student_file).read_text(encoding="utf-8")
    text = (f"_REFERENCE = {source!r}\n"
            f"exec(compile(_REFERENCE, __file__, 'exec'))\n\n"
            f"{ODD_RETURNS.read_text(encoding='utf-8')}\n\n"
            f"oddify(globals(), {list(functions)!r}, {list(recipes)!r})\n")
    (Path(folder) / student_file).write_text(text, encoding="utf-8")


def check_report(report, judged):
    assert report["status"] == "graded", report["message"]
    assert report["score"] < report["max_score"]
    for test in report["tests"]:
        assert NOT_CHECKED not in test["message"], (test["name"], test["message"])
        assert not GRADER_TRACE.search(test["message"]), (test["name"], test["message"])
    kept = {t["name"] for t in report["tests"] if t["status"] == "passed"}
    assert not kept & judged, f"tests passed on odd answers: {sorted(kept & judged)}"


@pytest.mark.parametrize("exercise_id", sorted(JUDGED))
def test_odd_answers_are_verdicts(exercise_id):
    # Derandomized: the same examples every run. Not shrunk: each step would
    # grade again, and the first example found says enough.
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              database=None, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow])
    @given(odd_cases(exercise_id))
    def graded(case):
        functions, recipes = case
        with TemporaryDirectory() as folder:
            odd_submission(exercise_id, folder, functions, recipes)
            report = grade(exercise_id, Path(folder))
        check_report(report, {t for f in functions for t in JUDGED[exercise_id][f]})

    if exercise_id in KNOWN:
        graded = example(KNOWN[exercise_id])(graded)
    graded()


FAULT = '''

def test_max_value(helpers):
    {}["a grader bug"]  # a fault of the check itself, not of the student's answers
'''


def test_a_fault_in_one_check_costs_that_test_alone(tmp_path, monkeypatch):
    """A grader fault inside one test's check leaves that test "could not be
    checked", flagged internal, and every other test its own verdict."""
    exercise = exercises.load("helpers")
    suite = shutil.copytree(exercise.suite, tmp_path / "suite")
    with open(suite / "test_helpers.py", "a", encoding="utf-8") as broken:
        broken.write(FAULT)  # in place of the real test_max_value

    made = staging.job

    def job(exercise, limits, _suite, work, **options):
        # the suite goes into the run's own folder, which its judge can read
        return made(exercise, limits, shutil.copytree(suite, work / "suite"), work, **options)

    monkeypatch.setattr(staging, "job", job)
    submission = intake.take(solution("helpers"), exercise.files)
    verdicts = events.verdicts(local.LocalSandbox().run(exercise, submission,
                                                        exercise.limits).events)
    broken = verdicts.pop("test_max_value")
    assert broken["status"] == "error" and broken["internal"] is True
    assert broken["message"].startswith(NOT_CHECKED) and "KeyError" in broken["message"]
    assert set(verdicts) == {t.name for t in exercise.tests} - {"test_max_value"}
    assert all(v["status"] == "passed" and not v["internal"] for v in verdicts.values())
