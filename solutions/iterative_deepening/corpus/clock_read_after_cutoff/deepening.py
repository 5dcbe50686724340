"""Reference solution: iterative deepening with alpha-beta."""

TIMER_THRESHOLD = 10  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    legal_moves = gameState.get_legal_moves()
    best_move = legal_moves[0] if legal_moves else None
    depth = 1
    try:
        while True:
            best_move = alpha_beta_search(gameState, depth, time_left)
            depth += 1
    except SearchTimeout:
        pass
    return best_move


def alpha_beta_search(gameState, depth, time_left):
    alpha, beta = float("-inf"), float("inf")
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        v = min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if v > best_score:
            best_move, best_score = move, v
        alpha = max(alpha, v)
    return best_move


def min_value(gameState, alpha, beta, depth, time_left):
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m), alpha, beta, depth - 1, time_left))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def max_value(gameState, alpha, beta, depth, time_left):
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m), alpha, beta, depth - 1, time_left))
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
