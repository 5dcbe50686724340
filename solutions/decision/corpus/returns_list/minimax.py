from minimax_helpers import *


def minimax_decision(gameState):
    best_score = float("-inf")
    best_move = None
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move))
        if score > best_score:
            best_score = score
            best_move = [move[0], move[1]]  # x, y
    return best_move
