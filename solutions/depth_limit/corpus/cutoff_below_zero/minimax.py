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


def min_value(gameState, depth):
    if terminal_test(gameState):
        return 1
    if depth < 0:
        return 0
    value = float("inf")
    for move in gameState.get_legal_moves():
        value = min(value, max_value(gameState.forecast_move(move), depth - 1))
    return value


def max_value(gameState, depth):
    if terminal_test(gameState):
        return -1
    if depth < 0:
        return 0
    value = float("-inf")
    for move in gameState.get_legal_moves():
        value = max(value, min_value(gameState.forecast_move(move), depth - 1))
    return value

# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
