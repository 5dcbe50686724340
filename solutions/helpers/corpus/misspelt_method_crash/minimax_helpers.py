def terminal_test(gameState):
    return len(gameState.get_legal_moves()) == 0


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(move))
               for move in gameState.legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(move))
               for move in gameState.legal_moves())
