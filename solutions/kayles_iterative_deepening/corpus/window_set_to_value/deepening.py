"""Iterative deepening with alpha-beta on Kayles: each node sets its bound to
the best value so far instead of narrowing the window it was given."""

TIMER_THRESHOLD = 12  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    moves = gameState.get_legal_moves()
    if not moves:
        return None
    chosen = moves[0]
    depth = 1
    while True:
        try:
            chosen = alpha_beta_search(gameState, depth, time_left)
        except SearchTimeout:
            return chosen
        depth += 1


def alpha_beta_search(gameState, depth, time_left):
    alpha = float("-inf")
    chosen = None
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), alpha, float("inf"), depth - 1,
                          time_left)
        if chosen is None or score > alpha:
            chosen, alpha = move, score
    return chosen


def _check_clock(time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()


def min_value(gameState, alpha, beta, depth, time_left):
    _check_clock(time_left)
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    best = float("inf")
    for move in gameState.get_legal_moves():
        best = min(best, max_value(gameState.forecast_move(move), alpha, beta, depth - 1,
                                   time_left))
        if best <= alpha:
            return best
        beta = best  # the best so far, even where it lies above the beta passed in
    return best


def max_value(gameState, alpha, beta, depth, time_left):
    _check_clock(time_left)
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    best = float("-inf")
    for move in gameState.get_legal_moves():
        best = max(best, min_value(gameState.forecast_move(move), alpha, beta, depth - 1,
                                   time_left))
        if best >= beta:
            return best
        alpha = best  # the best so far, even where it lies below the alpha passed in
    return best


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
