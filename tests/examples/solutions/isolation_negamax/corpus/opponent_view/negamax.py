"""Correct, in another style: the opponent's best value kept, then negated."""


def negamax(gameState, depth):
    stuck = terminal_test(gameState)
    if stuck:
        return -1
    if depth == 0:
        return 0
    worst_for_me = None
    for move in gameState.get_legal_moves():
        theirs = negamax(gameState.forecast_move(move), depth - 1)
        if worst_for_me is None or theirs < worst_for_me:
            worst_for_me = theirs
    return 0 - worst_for_me


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
