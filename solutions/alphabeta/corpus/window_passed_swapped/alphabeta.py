"""Alpha-beta pruning on mini-isolation."""


def alpha_beta_search(gameState, depth):
    """Return a best move for the player to move, searching ``depth`` moves
    ahead (depth >= 1) with alpha-beta pruning."""
    alpha, beta = float("-inf"), float("inf")
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        v = min_value(gameState.forecast_move(move), alpha, beta, depth - 1)
        if v > best_score:
            best_move, best_score = move, v
        alpha = max(alpha, v)
    return best_move


def min_value(gameState, alpha, beta, depth):
    """Return +1 on a terminal state, 0 at the cutoff (depth <= 0), else the
    smallest max_value of the children, pruning when v <= alpha."""
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m), beta, alpha, depth - 1))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def max_value(gameState, alpha, beta, depth):
    """Return -1 on a terminal state, 0 at the cutoff (depth <= 0), else the
    largest min_value of the children, pruning when v >= beta."""
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m), beta, alpha, depth - 1))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
