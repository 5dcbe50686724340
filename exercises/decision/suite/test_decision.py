"""The decision exercise: minimax_decision(gameState) returns a best move.

It runs on the grader's trusted GameState: every reachable position of the
lesson's board, and positions of a larger board, so that code which only
works on 3 x 2 is caught.
"""

import pytest

from grader.harness import isolation
from grader.harness.decision_checks import check_moves, nonterminal
from grader.harness.probes import SearchProbe

POSITIONS = nonterminal(isolation.reachable(isolation.new_game()))
# The larger board's full game is too big to search from the start in a
# student's plain minimax; two moves in, it takes a fraction of a second.
LARGE = nonterminal(
    [(s, p) for s, p in isolation.reachable(isolation.new_game(isolation.LARGE)) if len(p) == 2]
)[::9]


@pytest.fixture
def decision(student):
    return SearchProbe(student, "minimax")


def test_empty_board(decision):
    check_moves(decision, POSITIONS[:1])


def test_every_position(decision):
    check_moves(decision, POSITIONS)


def test_larger_board(decision):
    check_moves(decision, LARGE)
