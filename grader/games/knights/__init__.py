"""Knight's isolation on 7 x 7 (and the lesson's queen isolation on a larger
board), the games of the agent exercise, under the ``grader.games.Game``
interface, whose moves, turns and ends are isolation's own. No suite asks
about their positions and no mistake model is made of their rules: agents are
graded by play (``grader.match``).
"""

from collections.abc import Sequence

from grader.games import Path
from grader.games.isolation import legal_moves, play, terminal, to_move, utility
from grader.games.isolation.rules import draw, key, label
from grader.games.knights.rules import (
    VARIANTS,
    KnightsBoard,
    QueenBoard,
    board_from_data,
    new_board,
    to_data,
)

__all__ = ["VARIANTS", "KnightsBoard", "QueenBoard", "board_from_data", "new_board", "to_data",
           "start", "legal_moves", "play", "terminal", "utility", "to_move", "key", "label",
           "draw", "positions", "flawed"]


def start() -> KnightsBoard:
    board = new_board("knights")
    assert isinstance(board, KnightsBoard)
    return board


def positions() -> Sequence[tuple[QueenBoard, Path]]:
    return ()


def flawed() -> Sequence[object]:
    return ()
