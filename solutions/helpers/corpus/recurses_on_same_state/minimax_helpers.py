"""Minimax helpers for mini-isolation."""


def terminal_test(gameState):
    return len(gameState.get_legal_moves()) == 0


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    best = float("inf")
    for move in gameState.get_legal_moves():
        # forgot to play the move: the child is the same position
        best = min(best, max_value(gameState))
    return best


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    best = float("-inf")
    for move in gameState.get_legal_moves():
        best = max(best, min_value(gameState))
    return best
