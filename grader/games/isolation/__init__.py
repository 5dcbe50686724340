"""Mini-isolation, the lesson's game, under the ``grader.games.Game`` interface.

``rules`` is the trusted game (handed to students as ``gamestate.py``),
``flawed_rules`` the models of known rules mistakes, ``suite_positions``
what the suites ask about.
"""

import ast
from collections.abc import Sequence
from functools import lru_cache

from grader.games import Path
from grader.games.isolation import flawed_rules, suite_positions
from grader.games.isolation.rules import (
    DIRECTIONS,
    LARGE_BOARD,
    SMALL_BOARD,
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

__all__ = ["DIRECTIONS", "LARGE_BOARD", "SMALL_BOARD", "GameState", "draw", "from_data", "key",
           "label", "new_game", "reachable", "to_data", "start", "legal_moves", "play",
           "terminal", "utility", "to_move", "positions", "flawed", "descends", "larger"]


def start() -> GameState:
    return new_game()


def positions() -> Sequence[tuple[GameState, Path]]:
    return suite_positions.LESSON_POSITIONS


def larger(kind: str) -> list[tuple[GameState, Path]]:
    """The chosen positions of the 4 x 3 board for ``kind`` ("decision" or "depth")."""
    paths = {"decision": suite_positions.LARGE_DECISION_PATHS,
             "depth": suite_positions.LARGE_DEPTH_PATHS}[kind]
    return suite_positions.large(paths)


def flawed() -> Sequence[flawed_rules.GameModel]:
    return flawed_rules.GAME_MODELS


@lru_cache(maxsize=65536)
def _closed(label: str) -> tuple[tuple[int, int], frozenset[tuple[int, int]]] | None:
    """A label's board size and closed cells; None for what is no label."""
    try:
        width, height, board, _, _ = ast.literal_eval(label)
        cells = frozenset((x, y) for x, column in enumerate(board)
                          for y, closed in enumerate(column) if closed)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return (width, height), cells


def descends(root: str, label: str) -> bool:
    """Whether the position labelled ``label`` follows from ``root`` by one move
    or more: the same board, every cell closed at the root closed, and more."""
    top, below = _closed(root), _closed(label)
    return top is not None and below is not None and top[0] == below[0] and top[1] < below[1]
