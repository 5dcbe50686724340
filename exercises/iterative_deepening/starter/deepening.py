"""Iterative deepening with alpha-beta on mini-isolation.

get_action(gameState, time_left) searches depth 1, then 2, 3, ... with
alpha-beta, and returns the move of the deepest depth that finished.
time_left() says how much time is left. Inside the search, at every node,
raise SearchTimeout as soon as time_left() falls below TIMER_THRESHOLD;
get_action catches it and returns the move of the last depth that finished
(or, when not even depth 1 did, the first legal move).

The grader's time_left() is a clock that runs down by one tick at each
terminal_test call, so a search is always given the same time.
"""

TIMER_THRESHOLD = 10  # ticks: choose any from 1 to 20


class SearchTimeout(Exception):
    """Raised inside the search when time runs out."""


def get_action(gameState, time_left):
    """Return the best move of the deepest finished depth (1, 2, 3, ...),
    or the first legal move when depth 1 did not finish."""
    pass


def alpha_beta_search(gameState, depth, time_left):
    """Your alpha_beta_search from the alphabeta exercise, passing time_left
    on to min_value and max_value."""
    pass


def min_value(gameState, alpha, beta, depth, time_left):
    """Your min_value from the alphabeta exercise; first of all, raise
    SearchTimeout when time_left() < TIMER_THRESHOLD."""
    pass


def max_value(gameState, alpha, beta, depth, time_left):
    """Your max_value from the alphabeta exercise; first of all, raise
    SearchTimeout when time_left() < TIMER_THRESHOLD."""
    pass


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
