from minimax_helpers import *


def minimax_decision(gameState):
    scores = {m: min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves()}
    best = max(scores.values())
    return [m for m, s in scores.items() if s == best]
