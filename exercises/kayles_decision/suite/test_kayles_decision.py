"""The decision exercise, declared for Kayles: minimax_decision(gameState) on
the opening, every unfinished position of six pins, and on chosen positions of nine, so
that code which only works on six pins is caught. The probe plays the
exercise's game (exercise.toml: ``game = "kayles"``)."""

import pytest

from grader.games import kayles, unfinished
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.decision_checks import check_moves

POSITIONS = unfinished(kayles)
OPENING = 1 + len(kayles.legal_moves(kayles.start()))  # the full row, and after each first move


@pytest.fixture
def decision(student):
    return SearchProbe(student, "minimax")


def test_opening(decision):
    # with either player to move: one position alone can't tell some mistakes apart
    check_moves(decision, POSITIONS[:OPENING])


def test_every_position(decision):
    check_moves(decision, POSITIONS)


def test_larger_row(decision):
    check_moves(decision, kayles.larger("decision"))
