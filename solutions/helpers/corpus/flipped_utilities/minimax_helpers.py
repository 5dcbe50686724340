def terminal_test(gameState):
    """True if the player whose turn it is has no moves left."""
    return not gameState.get_legal_moves()


def min_value(gameState):
    # min has no moves -> game over
    if terminal_test(gameState):
        return -1
    v = float("inf")
    for move in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(move)))
    return v


def max_value(gameState):
    # max has no moves -> game over
    if terminal_test(gameState):
        return 1
    v = float("-inf")
    for move in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(move)))
    return v
