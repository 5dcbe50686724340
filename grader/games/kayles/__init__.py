"""Kayles under the ``grader.games.Game`` interface: the worked example of a
game added as one folder (docs/authoring.md).

``rules`` is the trusted game, in the lesson's GameState API (handed to
students as ``kayles.py``, and sent to the grader's stand-ins in the
student's process); the suites ask about every position of a row of six
pins and, so that code written for six pins shows, chosen positions of a
row of nine. It has no flawed rules: no exercise asks students to write it.
"""

import ast
from collections.abc import Sequence

from grader.games import Flawed, Path
from grader.games.kayles.rules import (
    LARGE_ROW,
    SMALL_ROW,
    GameState,
    draw,
    from_data,
    key,
    label,
    new_game,
    reachable,
    to_data,
)
from grader.games.lesson import legal_moves, play, terminal, to_move, utility

__all__ = ["LARGE_ROW", "SMALL_ROW", "GameState", "draw", "from_data", "key", "label",
           "new_game", "reachable", "to_data", "start", "legal_moves", "play", "terminal",
           "utility", "to_move", "positions", "flawed", "descends", "larger"]

# Positions of the nine-pin row, by the moves that reach them (checked by the
# grader's tests, tests/test_kayles.py): in each, the best moves are fewer
# than the legal ones, and some best move knocks down a pin from 6 to 8, which
# code written for six pins never looks at ("decision": a full search, from
# at most six pins standing, with either player to move, so that a model
# scoring for one fixed player is told apart; "depth": at depths 2 and 3).
_LARGER = {
    "decision": (((2, 3), (7, 8)), ((1, 1), (3, 4)), ((4, 4), (6, 7)),
                 ((0, 0), (3, 3), (8, 8)), ((2, 2), (0, 0), (1, 1)), ((3, 3), (4, 4), (0, 0))),
    "depth": (((2, 2), (7, 8), (3, 4)), ((1, 2), (5, 6), (3, 4)), ((2, 3), (4, 4), (7, 8)),
              ((7, 8), (0, 1), (3, 4)), ((0, 1), (2, 2), (5, 6)), ((3, 4), (1, 2), (7, 8))),
}


def start() -> GameState:
    return new_game()


def positions() -> Sequence[tuple[GameState, Path]]:
    return _POSITIONS


def larger(kind: str) -> list[tuple[GameState, Path]]:
    """The chosen positions of the nine-pin row for ``kind`` ("decision" or "depth")."""
    root = new_game(LARGE_ROW)
    return [(root.replay(path), path) for path in _LARGER[kind]]


def flawed() -> Sequence[Flawed]:
    return ()


def descends(root: str, label: str) -> bool:
    """Whether the position labelled ``label`` follows from ``root`` by one move
    or more: the same row, every pin down at the root down, and more."""
    try:
        top, below = _fallen(root), _fallen(label)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return top[0] == below[0] and top[1] < below[1]


def _fallen(label: str) -> tuple[int, frozenset[int]]:
    """A label's row length and fallen pins (raises on what is no label)."""
    pins, _ = ast.literal_eval(label)
    return len(pins), frozenset(i for i, standing in enumerate(pins) if not standing)


_POSITIONS = reachable(new_game())
