"""The tic-tac-toe lab with alpha-beta: max_alpha_beta and min_alpha_beta.

Each search test runs the student's function on every unfinished position of
its player with the lab's window (-2, 2), the grader's copy of the other
function standing in; the count test judges the is_end calls of those same
runs, made once per session: the lab's pruning (>= beta in max, <= alpha in
min) in row-major order, exactly.
"""

import pytest

from grader.harness.checking.checks import each
from grader.harness.tictactoe import checks
from grader.harness.tictactoe.checks import (
    CALL_MODELS,
    PRUNING_MODELS,
    SEARCH_MODELS,
    LabProbe,
    Runs,
)

VALUE_MODELS = SEARCH_MODELS + PRUNING_MODELS
COUNT_MODELS = PRUNING_MODELS + CALL_MODELS
PAIR = ("max_alpha_beta", "min_alpha_beta")
runs = Runs()


@pytest.fixture
def lab(student):
    return LabProbe(student)


def test_max_alpha_beta(lab, notes):
    checks.check_search("max_alpha_beta", runs(lab, "max_alpha_beta"), VALUE_MODELS, notes)


def test_min_alpha_beta(lab, notes):
    checks.check_search("min_alpha_beta", runs(lab, "min_alpha_beta"), VALUE_MODELS, notes)


def test_is_end_calls(lab):
    each(PAIR, lambda name: checks.check_calls(name, runs(lab, name), COUNT_MODELS))
