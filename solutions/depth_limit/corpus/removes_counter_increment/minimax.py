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


def _search(gameState, depth, maximizing):
    """One function for both sides; min_value / max_value just call it."""
    if terminal_test(gameState):
        return -1 if maximizing else 1
    if depth <= 0:
        return 0          # we stopped looking: no idea who wins
    children = [gameState.forecast_move(m) for m in gameState.get_legal_moves()]
    values = [_search(c, depth - 1, not maximizing) for c in children]
    return max(values) if maximizing else min(values)


def min_value(gameState, depth):
    return _search(gameState, depth, False)


def max_value(gameState, depth):
    return _search(gameState, depth, True)

# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    # (I took the counter out, it kept growing between my tests)
    return not bool(gameState.get_legal_moves())
