"""The tic-tac-toe lab: is_end, max() and min() of the student's Game class.

Each search test runs the student's function on every unfinished position of
its player, the grader's copy of the other function standing in; the count
test judges the is_end calls of those same runs, made once per session.
"""

import pytest

from grader.harness.runtime.verdict import Mismatch
from grader.harness.tictactoe import checks
from grader.harness.tictactoe.checks import CALL_MODELS, SEARCH_MODELS, LabProbe

RUNS: dict[str, list] = {}  # function -> its observations, once per session


@pytest.fixture
def lab(student):
    return LabProbe(student)


def observed(lab, name):
    if name not in RUNS:
        RUNS[name] = checks.observe_search(lab, name)
    return RUNS[name]


def test_is_end(lab):
    checks.check_ends(lab)


def test_max(lab, notes):
    checks.check_search("max", observed(lab, "max"), SEARCH_MODELS, notes)


def test_min(lab, notes):
    checks.check_search("min", observed(lab, "min"), SEARCH_MODELS, notes)


def test_is_end_calls(lab):
    failures = []
    for name in ("max", "min"):
        try:
            checks.check_calls(name, observed(lab, name), CALL_MODELS)
        except Mismatch as failure:
            failures.append(failure)
    if failures:  # both functions are judged, and both named when both are wrong
        raise Mismatch("\n\n".join(f.message for f in failures),
                       list(dict.fromkeys(m for f in failures for m in f.mistakes)))
