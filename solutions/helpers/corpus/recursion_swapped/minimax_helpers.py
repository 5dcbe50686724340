import math


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    best = math.inf
    for move in gameState.get_legal_moves():
        best = min(best, min_value(gameState.forecast_move(move)))
    return best


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    best = -math.inf
    for move in gameState.get_legal_moves():
        best = max(best, max_value(gameState.forecast_move(move)))
    return best
