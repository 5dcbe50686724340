"""Alpha-beta on mini-isolation, depth-limited."""

INF = float("inf")


def alpha_beta_search(gameState, depth):
    """The move of the best value for the player to move."""
    alpha = -INF
    chosen, chosen_value = None, -INF
    for move in gameState.get_legal_moves():
        value = min_value(gameState.forecast_move(move), alpha, INF, depth - 1)
        if value > chosen_value:
            chosen, chosen_value = move, value
        alpha = max(alpha, value)
    return chosen


def min_value(gameState, alpha, beta, depth):
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    best = INF
    for move in gameState.get_legal_moves():
        best = min(best, max_value(gameState.forecast_move(move), alpha, beta, depth - 1))
        if best <= alpha:
            return best
        beta = best  # the bound set to the value: it may widen the window
    return best


def max_value(gameState, alpha, beta, depth):
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    best = -INF
    for move in gameState.get_legal_moves():
        best = max(best, min_value(gameState.forecast_move(move), alpha, beta, depth - 1))
        if best >= beta:
            return best
        alpha = best
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
