"""The depth_limit exercise: minimax_decision(gameState, depth).

Counts come from a trusted terminal_test swapped into the student's module
from outside; the module's own ``call_counter`` is never read.
"""

import pytest

from grader.harness import checks, isolation
from grader.harness.decision_checks import check_counts, check_moves, nonterminal
from grader.harness.probes import SearchProbe

POSITIONS = nonterminal(isolation.reachable(isolation.new_game()))
DEPTHS = range(1, 7)
LARGE_ROOT = isolation.new_game(isolation.LARGE)
LARGE = nonterminal(
    [(s, p) for s, p in isolation.reachable(LARGE_ROOT) if len(p) == 2]
)[::9]


@pytest.fixture
def search(student):
    return SearchProbe(student, "minimax")


def test_depth_one_counts_five(search):
    check_counts(search, POSITIONS[:1], [1])


def test_cutoff_returns_zero(search):
    for name in ("min_value", "max_value"):
        differences = checks.collect(
            POSITIONS, lambda s, _: search(name, s, 0),
            lambda s, value: type(value) in (int, float) and value == 0,
            lambda s: "0 (the cutoff, on a position that is not terminal)",
        )
        if differences:
            mistake = checks.returned_a_stub(differences)
            if not mistake and all(d.actual in (1, -1) for d in differences):
                mistake = "cutoff_scored_as_terminal"
            checks.fail(f"{name}(state, 0)", differences, len(POSITIONS), mistake)


def test_call_counts(search):
    check_counts(search, POSITIONS, DEPTHS)


def test_best_moves(search):
    check_moves(search, POSITIONS, DEPTHS)


def test_larger_board(search):
    positions = [(LARGE_ROOT, ())] + LARGE
    check_counts(search, positions, [1, 2, 3])
    check_moves(search, positions, [1, 2, 3])
