def minimax_decision(gameState, depth):
    best_score = float("-inf")
    best_move = None
    for m in gameState.get_legal_moves():
        v = min_value(gameState.forecast_move(m), depth - 1)
        if v > best_score:
            best_score = v
            best_move = m
    return best_move


def min_value(gameState, depth):
    if terminal_test(gameState):
        return 1
    if depth <= 1:
        return 0
    return min(max_value(gameState.forecast_move(m), depth - 1)
               for m in gameState.get_legal_moves())


def max_value(gameState, depth):
    if terminal_test(gameState):
        return -1
    if depth <= 1:
        return 0
    return max(min_value(gameState.forecast_move(m), depth - 1)
               for m in gameState.get_legal_moves())


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
