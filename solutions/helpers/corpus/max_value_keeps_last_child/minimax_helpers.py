def terminal_test(gameState):
    return len(gameState.get_legal_moves()) == 0


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    lowest = float("inf")
    for move in gameState.get_legal_moves():
        lowest = min(lowest, max_value(gameState.forecast_move(move)))
    return lowest


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    highest = float("-inf")
    for move in gameState.get_legal_moves():
        # meant to update highest: best is overwritten by each child in turn
        best = max(highest, min_value(gameState.forecast_move(move)))
    return best
