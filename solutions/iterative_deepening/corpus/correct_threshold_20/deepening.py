"""Iterative deepening with alpha-beta on mini-isolation.

I use the largest threshold allowed so there is always time left to return.
"""

TIMER_THRESHOLD = 20  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    moves = gameState.get_legal_moves()
    best_move = moves[0] if len(moves) > 0 else None
    depth = 1
    while True:
        try:
            move = alpha_beta_search(gameState, depth, time_left)
        except SearchTimeout:
            return best_move
        best_move = move
        depth = depth + 1


def alpha_beta_search(gameState, depth, time_left):
    alpha, beta = float("-inf"), float("inf")
    best_score, best_move = float("-inf"), None
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if score > best_score:
            best_score, best_move = score, move
        alpha = max(alpha, score)
    return best_move


def min_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return 1
    if depth == 0:
        return 0
    v = float("inf")
    for move in gameState.get_legal_moves():
        child = gameState.forecast_move(move)
        v = min(v, max_value(child, alpha, beta, depth - 1, time_left))
        if v <= alpha:
            break
        beta = min(beta, v)
    return v


def max_value(gameState, alpha, beta, depth, time_left):
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return -1
    if depth == 0:
        return 0
    v = float("-inf")
    for move in gameState.get_legal_moves():
        child = gameState.forecast_move(move)
        v = max(v, min_value(child, alpha, beta, depth - 1, time_left))
        if v >= beta:
            break
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
