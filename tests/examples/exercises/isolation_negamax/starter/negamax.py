"""Negamax: minimax written as one function.

The value of a position for the player to move is the best, for that player,
of the values of its children for the opponent, negated: what is good for
the opponent is bad for the player. Your part: ``negamax(gameState, depth)``.
"""


def negamax(gameState, depth):
    """Return the value of ``gameState`` for the player to move, searching
    ``depth`` moves ahead: -1 when terminal_test says the player to move is
    stuck (it has lost), 0 at the cutoff (depth <= 0), else the largest
    -negamax(child, depth - 1) over the children."""
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
