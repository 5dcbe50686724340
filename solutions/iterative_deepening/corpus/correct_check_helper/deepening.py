"""Iterative deepening with alpha-beta on mini-isolation."""

TIMER_THRESHOLD = 5  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def _check(time_left):
    """Stop the search when the clock is nearly out."""
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()


def get_action(gameState, time_left):
    moves = gameState.get_legal_moves()
    if not moves:
        return None
    best_move = moves[0]
    depth = 1
    try:
        while True:
            best_move = alpha_beta_search(gameState, depth, time_left)
            depth += 1
    except SearchTimeout:
        pass
    return best_move


def alpha_beta_search(gameState, depth, time_left):
    alpha = float("-inf")
    best_move = None
    best_value = float("-inf")
    for move in gameState.get_legal_moves():
        value = min_value(gameState.forecast_move(move), alpha, float("inf"), depth - 1,
                          time_left)
        if value > best_value:
            best_value, best_move = value, move
        alpha = max(alpha, value)
    return best_move


def min_value(gameState, alpha, beta, depth, time_left):
    _check(time_left)
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    value = float("inf")
    for move in gameState.get_legal_moves():
        value = min(value, max_value(gameState.forecast_move(move), alpha, beta, depth - 1,
                                     time_left))
        if value <= alpha:
            return value
        beta = min(beta, value)
    return value


def max_value(gameState, alpha, beta, depth, time_left):
    _check(time_left)
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    value = float("-inf")
    for move in gameState.get_legal_moves():
        value = max(value, min_value(gameState.forecast_move(move), alpha, beta, depth - 1,
                                     time_left))
        if value >= beta:
            return value
        alpha = max(alpha, value)
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
