"""Mini-isolation, the lesson's game, under the ``grader.games.Game`` interface.

``rules`` is the trusted game (handed to students as ``gamestate.py``),
``flawed_rules`` the models of known rules mistakes, ``suite_positions``
what the suites ask about.
"""

from collections.abc import Sequence

from grader.games import Move, Path
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

__all__ = ["DIRECTIONS", "LARGE_BOARD", "SMALL_BOARD", "GameState", "draw", "from_data", "key",
           "label", "new_game", "reachable", "to_data", "start", "legal_moves", "play",
           "terminal", "utility", "to_move", "positions", "flawed"]


def start() -> GameState:
    return new_game()


def legal_moves(state: GameState) -> list[Move]:
    return state.get_legal_moves()


def play(state: GameState, move: Move) -> GameState:
    return state.forecast_move(move)


def terminal(state: GameState) -> bool:
    """Over when the player to move is stuck (the lesson's Assumption 1)."""
    return not state.get_legal_moves()


def to_move(state: GameState) -> int:
    return state.player()


def utility(state: GameState, player: int) -> int:
    """The stuck player to move has lost (the lesson's Assumption 2)."""
    return -1 if player == state.player() else 1


def positions() -> Sequence[tuple[GameState, Path]]:
    return suite_positions.LESSON_POSITIONS


def flawed() -> Sequence[flawed_rules.GameModel]:
    return flawed_rules.GAME_MODELS

