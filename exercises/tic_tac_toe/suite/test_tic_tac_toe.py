"""The tic-tac-toe lab: is_end, max() and min() of the student's Game class.

Each search test runs the student's function on every unfinished position of
its player, the grader's copy of the other function standing in; the count
test judges the is_end calls of those same runs, made once per session.
"""

import pytest

from grader.harness.checking.checks import each
from grader.harness.tictactoe import checks
from grader.harness.tictactoe.checks import CALL_MODELS, SEARCH_MODELS, LabProbe, Runs

runs = Runs()


@pytest.fixture
def lab(student):
    return LabProbe(student)


def test_is_end(lab):
    checks.check_ends(lab)


def test_max(lab, notes):
    checks.check_search("max", runs(lab, "max"), SEARCH_MODELS, notes)


def test_min(lab, notes):
    checks.check_search("min", runs(lab, "min"), SEARCH_MODELS, notes)


def test_is_end_calls(lab):
    each(("max", "min"), lambda name: checks.check_calls(name, runs(lab, name), CALL_MODELS))
