"""Negamax on Nim: minimax(game, player, depth, score) against the reference.

The Nim runs are made once per session and judged twice: their answers,
and their calls of score and move.
"""

import pytest

from grader.games import nim
from grader.harness.nim import checks
from grader.harness.nim.checks import NegamaxProbe, cases

PILES = range(26)
RUNS: dict[str, list] = {}


@pytest.fixture
def search(student):
    return NegamaxProbe(student)


def nim_runs(search):
    if "nim" not in RUNS:
        RUNS["nim"] = checks.observe(search, cases([nim.Nim(c) for c in PILES], range(1, 9)))
    return RUNS["nim"]


def test_depth_zero(search):
    checks.check_answers("minimax at depth 0", checks.observe(
        search, cases([nim.Nim(c) for c in PILES], [0])))


def test_game_over(search):
    games = [nim.Nim(0, last=last) for last in (None, "A", "B")]
    checks.check_answers("minimax on a finished game", checks.observe(
        search, cases(games, range(1, 4))))


def test_moves_and_ratings(search):
    checks.check_answers("minimax", nim_runs(search))


def test_calls(search):
    checks.check_calls(nim_runs(search))


def test_other_games(search):
    games = [nim.MisereNim(c) for c in range(13)] + [nim.MisereNim(0, last=p) for p in "AB"]
    checks.check_answers("minimax on misère Nim", checks.observe(
        search, cases(games, range(1, 7))), evidence=nim_runs(search))


def test_stuck_player_passes(search):
    games = [nim.OwnPiles((a, b)) for a in range(5) for b in range(5)]
    checks.check_answers("minimax when a player can't move", checks.observe(
        search, cases(games, range(1, 7))), evidence=nim_runs(search))
