"""The iterative_deepening exercise: get_action(gameState, time_left).

time_left() is the grader's virtual clock: it runs down by one tick at each
call of the grader's counting terminal_test, so a budget always gives the
same search. Each case (a position and a budget) runs once a session; each
test judges one side of the same runs.
"""

import pytest

from grader.games import isolation
from grader.games.isolation.suite_positions import (
    LARGE_DECISION_PATHS,
    LARGE_DEPTH_PATHS,
    large,
    nonterminal,
)
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson import deepening_checks as deepening

# The decision exercise's positions of the 4 x 3 board as well: a window set
# to a child's value (beta = v) instead of narrowed to it (min(beta, v)) makes
# too many terminal tests for a budget only there (after (2, 0), (3, 0) at
# depth 5, say).
POSITIONS = (nonterminal(isolation.positions()) + large(LARGE_DEPTH_PATHS)
             + large(LARGE_DECISION_PATHS))


@pytest.fixture
def search(student):
    return SearchProbe(student, "deepening")


def test_deepest_finished_depth(search):
    deepening.check_moves(search, POSITIONS)


def test_depths_in_order(search):
    deepening.check_depths(search, POSITIONS)


def test_fallback_move(search):
    deepening.check_fallback(search, POSITIONS)


def test_stops_in_time(search):
    deepening.check_in_time(search, POSITIONS)
