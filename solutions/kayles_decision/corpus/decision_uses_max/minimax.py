from minimax_helpers import *


def minimax_decision(gameState):
    """Return the move with the best max_value."""
    scores = {}
    for move in gameState.get_legal_moves():
        scores[move] = max_value(gameState.forecast_move(move))
    return max(scores, key=scores.get)
