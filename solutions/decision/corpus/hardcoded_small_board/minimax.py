from minimax_helpers import *


def minimax_decision(gameState):
    legal = gameState.get_legal_moves()
    best_move, best_score = None, float("-inf")
    # walk the board in reading order so ties always go to the same move
    for y in range(2):
        for x in range(3):
            if (x, y) not in legal:
                continue
            score = min_value(gameState.forecast_move((x, y)))
            if score > best_score:
                best_move, best_score = (x, y), score
    return best_move
