# Helpers for minimax. The utilities are always from max's point of view.

WIN = 1
LOSS = -1


def terminal_test(gameState):
    moves = gameState.get_legal_moves()
    return False if moves else True


def _children(gameState):
    return [gameState.forecast_move(m) for m in gameState.get_legal_moves()]


def min_value(gameState):
    if terminal_test(gameState):
        return WIN
    return min(max_value(child) for child in _children(gameState))


def max_value(gameState):
    if terminal_test(gameState):
        return LOSS
    return max(min_value(child) for child in _children(gameState))
