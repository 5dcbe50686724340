"""The decision exercise: minimax_decision(gameState) returns a best move.

It runs on the grader's trusted GameState: every reachable, unfinished
position of the lesson's board, and chosen positions of a larger board, so
that code which only works on 3 x 2 is caught.
"""

import pytest

from grader.games import isolation
from grader.games.isolation.suite_positions import LARGE_DECISION_PATHS, large, nonterminal
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.decision_checks import check_moves

POSITIONS = nonterminal(isolation.positions())


@pytest.fixture
def decision(student):
    return SearchProbe(student, "minimax")


def test_empty_board(decision):
    check_moves(decision, POSITIONS[:1])


def test_every_position(decision):
    check_moves(decision, POSITIONS)


def test_larger_board(decision):
    check_moves(decision, large(LARGE_DECISION_PATHS))
