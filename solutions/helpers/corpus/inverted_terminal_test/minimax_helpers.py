def terminal_test(gameState):
    # check if there are still moves left
    return len(gameState.get_legal_moves()) > 0


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    value = float("inf")
    for m in gameState.get_legal_moves():
        value = min(value, max_value(gameState.forecast_move(m)))
    return value


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    value = float("-inf")
    for m in gameState.get_legal_moves():
        value = max(value, min_value(gameState.forecast_move(m)))
    return value
