# I wrote my own helpers here instead of importing them


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    if terminal_test(gameState):
        return -1       # min can't move, game over
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return 1        # max can't move, game over
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def minimax_decision(gameState):
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move))
        if score > best_score:
            best_move, best_score = move, score
    return best_move
