"""Alpha-beta pruning on mini-isolation.

min_value and max_value share one helper, _alphabeta, which knows whose
turn it is from ``maximizing``.
"""

INF = float("inf")


def alpha_beta_search(gameState, depth):
    """Return a best move for the player to move, searching ``depth`` moves
    ahead (depth >= 1) with alpha-beta pruning."""
    alpha = -INF
    best_move, best_score = None, -INF
    for move in gameState.get_legal_moves():
        score = _alphabeta(gameState.forecast_move(move), alpha, INF, depth - 1, False)
        if score > best_score:
            best_move, best_score = move, score
        alpha = max(alpha, score)
    return best_move


def _alphabeta(state, alpha, beta, depth, maximizing):
    if terminal_test(state):
        # the player to move is stuck: max loses, min loses (so max wins)
        return -1 if maximizing else 1
    if depth <= 0:
        return 0
    best = -INF if maximizing else INF
    for move in state.get_legal_moves():
        value = _alphabeta(state.forecast_move(move), alpha, beta, depth - 1, not maximizing)
        if maximizing:
            best = max(best, value)
            if best >= beta:
                return best
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            if best <= alpha:
                return best
            beta = min(beta, best)
    return best


def min_value(gameState, alpha, beta, depth):
    """Return +1 on a terminal state, 0 at the cutoff (depth <= 0), else the
    smallest max_value of the children, pruning when v <= alpha."""
    return _alphabeta(gameState, alpha, beta, depth, False)


def max_value(gameState, alpha, beta, depth):
    """Return -1 on a terminal state, 0 at the cutoff (depth <= 0), else the
    largest min_value of the children, pruning when v >= beta."""
    return _alphabeta(gameState, alpha, beta, depth, True)


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
