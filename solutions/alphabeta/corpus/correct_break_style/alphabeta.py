"""Alpha-beta pruning on mini-isolation.

Your part: alpha_beta_search, min_value and max_value, in the textbook's
form. Test for a terminal state first (+1 in min_value, -1 in max_value),
then for the cutoff (depth <= 0: return 0), then search the children in
get_legal_moves() order, passing depth - 1 and the window (alpha, beta):

- max_value returns as soon as v >= beta, and raises alpha to v;
- min_value returns as soon as v <= alpha, and lowers beta to v;
- alpha_beta_search is a max node that keeps the first move of the best
  value, raising alpha after each child.
"""


def alpha_beta_search(gameState, depth):
    """Return a best move for the player to move, searching ``depth`` moves
    ahead (depth >= 1) with alpha-beta pruning."""
    alpha, beta = float("-inf"), float("inf")
    best_score = float("-inf")
    best_move = None
    for m in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(m), alpha, beta, depth - 1)
        if score > best_score:
            best_score = score
            best_move = m
        alpha = max(alpha, best_score)
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
        v = min(v, max_value(gameState.forecast_move(m), alpha, beta, depth - 1))
        beta = min(beta, v)
        if alpha >= beta:
            break  # max above already has something at least this good
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
        v = max(v, min_value(gameState.forecast_move(m), alpha, beta, depth - 1))
        alpha = max(alpha, v)
        if alpha >= beta:
            break  # min above will never let us get here
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
