"""Iterative deepening with alpha-beta: the clock is read in min_value only
(max_value forgot it), so a depth's search goes on through a max level after
the time is up, until the next min node."""

TIMER_THRESHOLD = 10


class SearchTimeout(Exception):
    pass


def get_action(gameState, time_left):
    moves = gameState.get_legal_moves()
    if not moves:
        return None
    best = moves[0]
    depth = 1
    while True:
        try:
            best = alpha_beta_search(gameState, depth, time_left)
        except SearchTimeout:
            return best
        depth += 1


def alpha_beta_search(gameState, depth, time_left):
    alpha = float("-inf")
    chosen = None
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), alpha, float("inf"), depth - 1,
                          time_left)
        if chosen is None or score > alpha:
            chosen, alpha = move, max(alpha, score)
    return chosen


def min_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
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
