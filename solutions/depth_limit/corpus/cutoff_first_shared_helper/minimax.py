"""Depth-limited minimax."""


def minimax_decision(gameState, depth):
    """Return a best move for the player to move, searching ``depth`` moves
    ahead (depth >= 1). Given: don't change it."""
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), depth - 1)
        if score > best_score:
            best_move, best_score = move, score
    return best_move


def leaf_value(gameState, depth, if_stuck):
    """The value of a leaf, or None when the search goes on."""
    if depth <= 0:
        return 0
    if terminal_test(gameState):
        return if_stuck
    return None


def min_value(gameState, depth):
    leaf = leaf_value(gameState, depth, 1)
    if leaf is not None:
        return leaf
    return min(max_value(gameState.forecast_move(m), depth - 1)
               for m in gameState.get_legal_moves())


def max_value(gameState, depth):
    leaf = leaf_value(gameState, depth, -1)
    if leaf is not None:
        return leaf
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
