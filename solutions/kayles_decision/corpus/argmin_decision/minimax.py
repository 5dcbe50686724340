from minimax_helpers import *


def minimax_decision(gameState):
    best_move = None
    best_val = float("inf")
    for m in gameState.get_legal_moves():
        val = min_value(gameState.forecast_move(m))
        if val < best_val:
            best_val = val
            best_move = m
    return best_move
