"""Reference solution: the minimax decision (the same code plays mini-isolation and Kayles)."""

from minimax_helpers import *  # noqa: F401,F403


def minimax_decision(gameState):
    return max(gameState.get_legal_moves(),
               key=lambda m: min_value(gameState.forecast_move(m)))
