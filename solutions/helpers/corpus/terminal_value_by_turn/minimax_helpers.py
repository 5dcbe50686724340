def terminal_test(gameState):
    if gameState.get_legal_moves():
        return False
    return True


def _stuck_value(gameState):
    # player 1 stuck is a loss, player 2 stuck a win
    if gameState._parity == 0:
        return -1
    return 1


def min_value(gameState):
    if terminal_test(gameState):
        return _stuck_value(gameState)
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return _stuck_value(gameState)
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
