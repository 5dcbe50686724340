def terminal_test(gameState):
    """Game over when the player to move can't go anywhere."""
    return not gameState.get_legal_moves()


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    scores = [max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves()]
    return max(scores)


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    scores = [min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves()]
    return min(scores)
