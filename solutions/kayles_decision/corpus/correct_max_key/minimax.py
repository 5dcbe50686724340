"""Lab 3 part 3: minimax decision."""
import minimax_helpers


def minimax_decision(gameState):
    moves = gameState.get_legal_moves()
    return max(moves, key=lambda m: minimax_helpers.min_value(gameState.forecast_move(m)))
