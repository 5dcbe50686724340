"""The minimax helpers, as the course hands them out for the later exercises.

A student's ``from minimax_helpers import *`` gets this file. It is
self-contained on purpose: the student's process may read it, and nothing
of the grader's own search comes with it.
"""


def terminal_test(gameState):
    """True when the player to move has no legal move."""
    return not gameState.get_legal_moves()


def min_value(gameState):
    """+1 when min is stuck; else the smallest max_value one move away."""
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    """-1 when max is stuck; else the largest min_value one move away."""
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
