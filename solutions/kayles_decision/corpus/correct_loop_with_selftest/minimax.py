from minimax_helpers import *
import kayles


def minimax_decision(gameState):
    """Pick the move whose resulting state has the highest min_value."""
    best_score = float("-inf")
    best_move = None
    for move in gameState.get_legal_moves():
        # after our move it is the opponent's turn, so it's a min node
        score = min_value(gameState.forecast_move(move))
        if score > best_score:
            best_score = score
            best_move = move
    return best_move


print("best first move:", minimax_decision(kayles.GameState()))
