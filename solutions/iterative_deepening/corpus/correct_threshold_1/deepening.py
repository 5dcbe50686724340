"""Iterative deepening with alpha-beta on mini-isolation."""

TIMER_THRESHOLD = 1  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    """Return the best move of the deepest finished depth (1, 2, 3, ...),
    or the first legal move when depth 1 did not finish."""
    legal = gameState.get_legal_moves()
    best = legal[0] if legal else None
    depth = 1
    try:
        while True:
            best = alpha_beta_search(gameState, depth, time_left)
            depth += 1
    except SearchTimeout:
        return best


def alpha_beta_search(gameState, depth, time_left):
    alpha = float("-inf")
    beta = float("inf")
    best_move = None
    best_val = float("-inf")
    for move in gameState.get_legal_moves():
        val = min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if val > best_val:
            best_val = val
            best_move = move
        if val > alpha:
            alpha = val
    return best_move


def min_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    v = float("inf")
    for move in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left))
        if v <= alpha:
            return v
        if v < beta:
            beta = v
    return v


def max_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    v = float("-inf")
    for move in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left))
        if v >= beta:
            return v
        if v > alpha:
            alpha = v
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
