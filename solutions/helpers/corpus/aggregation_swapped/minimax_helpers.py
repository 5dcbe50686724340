# Part 2: helpers

def terminal_test(gameState):
    legal = gameState.get_legal_moves()
    return len(legal) == 0


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    v = float("inf")
    for action in gameState.get_legal_moves():
        next_state = gameState.forecast_move(action)
        v = max(v, max_value(next_state))
    return v


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("-inf")
    for action in gameState.get_legal_moves():
        next_state = gameState.forecast_move(action)
        v = min(v, min_value(next_state))
    return v
