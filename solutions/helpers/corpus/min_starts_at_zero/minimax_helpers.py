print("minimax_helpers imported")


def terminal_test(gameState):
    moves = gameState.get_legal_moves()
    if len(moves) == 0:
        return True
    return False


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    v = 0
    for move in gameState.get_legal_moves():
        score = max_value(gameState.forecast_move(move))
        if score < v:
            v = score
    return v


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("-inf")
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move))
        if score > v:
            v = score
    return v
