"""Iterative deepening with fail-hard alpha-beta on mini-isolation."""

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
    best_move = None
    for move in gameState.get_legal_moves():
        v = min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if v > alpha or best_move is None:
            alpha, best_move = v, move
    return best_move


def min_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    for move in gameState.get_legal_moves():
        v = max_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if v <= alpha:
            return alpha  # fail hard: never below the window
        if v < beta:
            beta = v
    return beta


def max_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    for move in gameState.get_legal_moves():
        v = min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if v >= beta:
            return beta  # fail hard: never above the window
        if v > alpha:
            alpha = v
    return alpha


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
