"""A known mistake: the children searched with the same depth."""


def negamax(gameState, depth):
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    best = float("-inf")
    for move in gameState.get_legal_moves():
        best = max(best, -negamax(gameState.forecast_move(move), depth))
    return best


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
