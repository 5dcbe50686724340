"""Iterative deepening with alpha-beta (as in the AIND isolation agent)."""

import itertools

TIMER_THRESHOLD = 10  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    """Return the best move of the deepest finished depth (1, 2, 3, ...),
    or the first legal move when depth 1 did not finish."""
    legal_moves = gameState.get_legal_moves()
    if not legal_moves:
        return None
    best_move = legal_moves[0]
    try:
        for depth in itertools.count(1):
            best_move = alpha_beta_search(gameState, depth, time_left)
    except SearchTimeout:
        pass  # out of time: keep the move of the last full depth
    return best_move


def alpha_beta_search(gameState, depth, time_left):
    """Your alpha_beta_search from the alphabeta exercise, passing time_left
    on to min_value and max_value."""
    alpha = float("-inf")
    beta = float("inf")
    best_score = float("-inf")
    best_move = None
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left)
        if score > best_score:
            best_score = score
            best_move = move
        alpha = max(alpha, best_score)
    return best_move


def min_value(gameState, alpha, beta, depth, time_left):
    """Your min_value from the alphabeta exercise; first of all, raise
    SearchTimeout when time_left() < TIMER_THRESHOLD."""
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return 1
    if depth <= 0:
        return 0
    v = float("inf")
    for move in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def max_value(gameState, alpha, beta, depth, time_left):
    """Your max_value from the alphabeta exercise; first of all, raise
    SearchTimeout when time_left() < TIMER_THRESHOLD."""
    if time_left() < TIMER_THRESHOLD:
        raise SearchTimeout()
    if terminal_test(gameState):
        return -1
    if depth <= 0:
        return 0
    v = float("-inf")
    for move in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(move), alpha, beta, depth - 1, time_left))
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
