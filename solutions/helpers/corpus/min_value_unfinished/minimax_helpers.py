"""Minimax helpers (lab 3)."""


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    worst = None
    for m in gameState.get_legal_moves():
        score = max_value(gameState.forecast_move(m))
        if worst is None or score < worst:
            worst = score
    # FIXME: what do I return here?


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    scores = [min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves()]
    return max(scores)
