def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    value = float("-inf")
    for m in gameState.get_legal_moves():
        result = max(value, min_value(gameState.forecast_move(m)))
    return result


def minimax_decision(gameState):
    moves = gameState.get_legal_moves()
    scores = [min_value(gameState.forecast_move(m)) for m in moves]
    return moves[scores.index(max(scores))]
