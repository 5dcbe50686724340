def terminal_test(gameState):
    if gameState.get_legal_moves():
        return False
    else:
        return True


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    lowest = float("inf")
    for move in gameState.get_legal_moves():
        child = gameState.forecast_move(move)
        lowest = min(lowest, max_value(child))
    return lowest


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    highest = float("-inf")
    for move in gameState.get_legal_moves():
        child = gameState.forecast_move(move)
        highest = max(highest, min_value(child))
    # TODO return the best score
