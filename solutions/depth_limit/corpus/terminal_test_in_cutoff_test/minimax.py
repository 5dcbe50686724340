"""Depth-limited minimax: my version."""


def minimax_decision(gameState, depth):
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), depth - 1)
        if score > best_score:
            best_move, best_score = move, score
    return best_move


def stop_here(gameState, depth):
    """Nothing more to search: out of depth, or the game is over."""
    return depth <= 0 or terminal_test(gameState)


def min_value(gameState, depth):
    if terminal_test(gameState):
        return 1
    if stop_here(gameState, depth):
        return 0
    return min(max_value(gameState.forecast_move(m), depth - 1)
               for m in gameState.get_legal_moves())


def max_value(gameState, depth):
    if terminal_test(gameState):
        return -1
    if stop_here(gameState, depth):
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
