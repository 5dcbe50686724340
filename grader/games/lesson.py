"""The ``Game`` interface of a game of the lesson's kind, once for all of them.

Mini-isolation, Kayles and the drawn trees keep the lesson's GameState API
(``get_legal_moves()``, ``forecast_move(move)``, ``player()``) and its two
assumptions: a position is over when the player to move has no legal move
(Assumption 1), and that player has lost (Assumption 2). Their packages
re-export these functions as their own.
"""

from typing import Any

from grader.games import Move

State = Any  # a GameState of the lesson's kind: any of the games above


def legal_moves(state: State) -> list[Move]:
    moves: list[Move] = state.get_legal_moves()
    return moves


def play(state: State, move: Move) -> State:
    return state.forecast_move(move)


def terminal(state: State) -> bool:
    """Over when the player to move is stuck (the lesson's Assumption 1)."""
    return not state.get_legal_moves()


def to_move(state: State) -> int:
    player: int = state.player()
    return player


def utility(state: State, player: int) -> int:
    """The stuck player to move has lost (the lesson's Assumption 2)."""
    return -1 if player == state.player() else 1
