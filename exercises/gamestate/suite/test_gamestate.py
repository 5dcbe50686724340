"""The gamestate exercise: the student's own GameState class.

The rules tests replay the lesson's move sequences on the student's class,
from a fresh ``GameState()`` each time, and compare the legal moves with the
trusted game's. The tests of ``forecast_move`` and of the answer's type walk
the positions the student's own rules reach, so a rules mistake costs the
rules tests only (see ``grader.harness.lesson.game_checks``).
"""

import pytest

from grader.games.isolation.flawed_rules import FlawedGame
from grader.harness.checking.probes import GameProbe
from grader.harness.lesson import game_checks

POSITIONS = game_checks.LESSON
FIRST_MOVES = [(s, p) for s, p in POSITIONS if len(p) <= 1]
# Positions where a slide that ignored closed cells would find more moves.
BLOCKED = [
    (s, p) for s, p in POSITIONS
    if set(FlawedGame(through_closed=True).replay(p).get_legal_moves()) != set(s.get_legal_moves())
]


@pytest.fixture
def game(student):
    return GameProbe(student)


def test_start_position(game):
    game_checks.check_legal_moves(game, POSITIONS[:1], "get_legal_moves at the start "
                                                       "(5 open cells, (2, 1) blocked)")


def test_first_moves(game):
    game_checks.check_legal_moves(game, FIRST_MOVES, "get_legal_moves before a player's "
                                                     "first move")


def test_legal_moves_everywhere(game):
    game_checks.check_legal_moves(game, POSITIONS)


def test_slides_are_blocked(game):
    game_checks.check_legal_moves(game, BLOCKED, "get_legal_moves where closed cells block "
                                                 "a slide")


def test_moves_are_a_list_of_tuples(game):
    game_checks.check_answer_types(game)


def test_forecast_returns_new_state(game):
    game_checks.check_new_state(game)


def test_forecast_leaves_parent_unchanged(game, notes):
    game_checks.check_parent_unchanged(game, notes)
