"""Iterative deepening with alpha-beta, min and max sharing one negamax helper."""

TIMER_THRESHOLD = 15  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    legal = gameState.get_legal_moves()
    best_move = legal[0] if legal else None
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


def _negamax(gameState, alpha, beta, depth, time_left):
    """The value of gameState for the player to move (+1 win, -1 loss)."""
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return -1  # the player to move is stuck: a loss for them
    if depth <= 0:
        return 0
    v = float("-inf")
    for move in gameState.get_legal_moves():
        v = max(v, -_negamax(gameState.forecast_move(move), -beta, -alpha, depth - 1, time_left))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(gameState, alpha, beta, depth, time_left):
    # the opponent is to move: their value, from our side
    return -_negamax(gameState, -beta, -alpha, depth, time_left)


def max_value(gameState, alpha, beta, depth, time_left):
    return _negamax(gameState, alpha, beta, depth, time_left)


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
