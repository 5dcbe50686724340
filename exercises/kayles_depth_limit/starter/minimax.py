"""Depth-limited minimax, on Kayles.

minimax_decision is given. Your part: give min_value and max_value a
``depth`` argument, pass ``depth - 1`` to the next level, and stop at the
cutoff. Test for a terminal state first (it is worth +1 in min_value and
-1 in max_value, as before); only then, when depth <= 0, return 0: the
game is not over there, and we don't know who wins.
"""


def minimax_decision(gameState, depth):
    """Return a best move for the player to move, searching ``depth`` moves
    ahead (depth >= 1). Given: don't change it."""
    best_move, best_score = None, float("-inf")
    for move in gameState.get_legal_moves():
        score = min_value(gameState.forecast_move(move), depth - 1)
        if score > best_score:
            best_move, best_score = move, score
    return best_move


def min_value(gameState, depth):
    """Return +1 on a terminal state, 0 at the cutoff (depth <= 0), else the
    smallest max_value(child, depth - 1)."""
    pass


def max_value(gameState, depth):
    """Return -1 on a terminal state, 0 at the cutoff (depth <= 0), else the
    largest min_value(child, depth - 1)."""
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
