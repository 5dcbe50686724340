def terminal_test(gameState):
    moves = gameState.get_legal_moves()
    return not moves


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    value = 0
    for action in gameState.get_legal_moves():
        value = min(value, max_value(gameState.forecast_move(action)))
    return value


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    value = float("-inf")
    for action in gameState.get_legal_moves():
        value = max(value, min_value(gameState.forecast_move(action)))
