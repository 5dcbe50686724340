from minimax_helpers import *


def minimax_decision(gameState):
    # value of the best move for the player to move
    best = float("-inf")
    for move in gameState.get_legal_moves():
        best = max(best, min_value(gameState.forecast_move(move)))
    return best
