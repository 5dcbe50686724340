def terminal_test(gameState):
    # 1 = game over, 0 = keep going
    if len(gameState.get_legal_moves()) == 0:
        return 1
    return 0


def min_value(gameState):
    if terminal_test(gameState) == 1:
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState) == 1:
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
