import GameState  # the course's module is gamestate, in lower case


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
