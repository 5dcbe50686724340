"""The depth_limit exercise: minimax_decision(gameState, depth).

Counts come from a trusted terminal_test swapped into the student's module
from outside; the module's own ``call_counter`` is never read.
"""

import pytest

from grader.harness import checks
from grader.harness.decision_checks import check_counts, check_moves
from grader.harness.positions import LARGE_DEPTH_PATHS, SMALL, large, nonterminal
from grader.harness.probes import SearchProbe

POSITIONS = nonterminal(SMALL)
DEPTHS = range(1, 7)


@pytest.fixture
def search(student):
    return SearchProbe(student, "minimax")


def test_depth_one_counts_five(search):
    check_counts(search, POSITIONS[:1], [1])


def test_cutoff_returns_zero(search):
    def scored_as_terminal(observations):
        bad = checks.wrong(observations)
        return ["cutoff_scored_as_terminal"] if all(o.answer in (1, -1) for o in bad) else []

    for name in ("min_value", "max_value"):
        observations = checks.collect(
            POSITIONS, search.values(name, POSITIONS, 0),
            lambda s, value: type(value) in (int, float) and value == 0,
            lambda s: "0 (the cutoff, on a position that is not terminal)")
        checks.verdict(f"{name}(state, 0)", observations, scored_as_terminal)


def test_call_counts(search):
    check_counts(search, POSITIONS, DEPTHS)


def test_best_moves(search):
    check_moves(search, POSITIONS, DEPTHS)


def test_larger_board(search):
    positions = large(LARGE_DEPTH_PATHS)
    check_counts(search, positions, [1, 2, 3])
    check_moves(search, positions, [1, 2, 3])
