"""Correct, in another style: the children's values gathered by max()."""


def negamax(gameState, depth):
    if terminal_test(gameState):
        return -1
    if depth < 1:
        return 0
    children = [gameState.forecast_move(move) for move in gameState.get_legal_moves()]
    return max(-negamax(child, depth - 1) for child in children)


# ---------------------------------------------------------------------------
# Do not change anything below this line: the grader relies on it.
# ---------------------------------------------------------------------------

call_counter = 0


def terminal_test(gameState):
    """True when the player to move has no legal move; counts every call."""
    global call_counter
    call_counter += 1
    return not bool(gameState.get_legal_moves())
