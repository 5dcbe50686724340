"""The iterative_deepening exercise, declared for Kayles: get_action(gameState,
time_left) on a virtual clock that runs down by one tick at each call of the
grader's counting terminal_test. Each case (a position and a budget) runs
once a session; each test judges one side of the same runs. The probe plays
the exercise's game (exercise.toml: ``game = "kayles"``)."""

import pytest

from grader.games import kayles, unfinished
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson import deepening_checks as deepening

# One pin down on the row of nine: a window set to a child's value instead of
# narrowed to it (beta = v in min_value, alpha = v in max_value) prunes less
# only six (or, for max_value, five) levels deep, and makes too many terminal
# tests for the budget that fits that depth.
WIDENED = [(kayles.new_game(kayles.LARGE_ROW).replay(path), path)
           for path in [((7, 7),), ((6, 7),)]]
POSITIONS = unfinished(kayles) + kayles.larger("depth") + WIDENED


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
