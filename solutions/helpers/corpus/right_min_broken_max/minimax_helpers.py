INF = float("inf")


def terminal_test(gameState):
    return gameState.get_legal_moves() == []


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    best = INF
    for move in gameState.get_legal_moves():
        score = max_value(gameState.forecast_move(move))
        if score < best:
            best = score
    return best


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    best = 0  # scores are -1, 0 or 1
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move))
        if score > best:
            best = score
    return best
