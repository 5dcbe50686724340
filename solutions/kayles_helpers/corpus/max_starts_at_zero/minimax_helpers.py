def terminal_test(gameState):
    return gameState.get_legal_moves() == []


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    v = float("inf")
    for move in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(move)))
    return v


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = 0
    for move in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(move)))
    return v
