"""The tic-tac-toe lab with alpha-beta: max_alpha_beta and min_alpha_beta.

Each search test runs the student's function on every unfinished position of
its player, the grader's copy of the other function standing in; the count
test judges the is_end calls of those same runs, made once per session: the
lab's pruning (>= beta in max, <= alpha in min) in row-major order, exactly.
"""

import pytest

from grader.harness.runtime.verdict import Mismatch
from grader.harness.tictactoe import checks
from grader.harness.tictactoe.checks import PRUNING_MODELS, SEARCH_MODELS, LabProbe

VALUE_MODELS = SEARCH_MODELS + PRUNING_MODELS
RUNS: dict[str, list] = {}  # function -> its observations, once per session


@pytest.fixture
def lab(student):
    return LabProbe(student)


def observed(lab, name):
    if name not in RUNS:
        RUNS[name] = checks.observe_search(lab, name)
    return RUNS[name]


def test_max_alpha_beta(lab, notes):
    checks.check_search("max_alpha_beta", observed(lab, "max_alpha_beta"), VALUE_MODELS, notes)


def test_min_alpha_beta(lab, notes):
    checks.check_search("min_alpha_beta", observed(lab, "min_alpha_beta"), VALUE_MODELS, notes)


def test_is_end_calls(lab):
    failures = []
    for name in ("max_alpha_beta", "min_alpha_beta"):
        try:
            checks.check_calls(name, observed(lab, name), PRUNING_MODELS)
        except Mismatch as failure:
            failures.append(failure)
    if failures:  # both functions are judged, and both named when both are wrong
        raise Mismatch("\n\n".join(f.message for f in failures),
                       list(dict.fromkeys(m for f in failures for m in f.mistakes)))
