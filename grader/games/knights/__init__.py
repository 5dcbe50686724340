"""Knight's isolation on 7 x 7 (and the lesson's queen isolation on a larger
board), the games of the agent exercise, under the ``grader.games.Game``
interface. No suite asks about their positions and no mistake model is made
of their rules: agents are graded by play (``grader.match``).
"""

from collections.abc import Sequence

from grader.games import Move, Path
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


def legal_moves(state: QueenBoard) -> list[Move]:
    return state.get_legal_moves()


def play(state: QueenBoard, move: Move) -> QueenBoard:
    return state.forecast_move(move)


def terminal(state: QueenBoard) -> bool:
    """Over when the player to move has no move: that player has lost."""
    return not state.get_legal_moves()


def to_move(state: QueenBoard) -> int:
    return state.player()


def utility(state: QueenBoard, player: int) -> int:
    return -1 if player == state.player() else 1


def positions() -> Sequence[tuple[QueenBoard, Path]]:
    return ()


def flawed() -> Sequence[object]:
    return ()
