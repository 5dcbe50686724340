"""The minimax helpers: terminal_test, min_value and max_value.

Each takes a GameState (the grader passes its own, with forecast_move and
get_legal_moves). Utilities are always seen from the player who searches,
the max player:

* a state is terminal when the player to move has no legal move;
* in min_value a terminal state is worth +1 (min is stuck: max wins);
* in max_value a terminal state is worth -1 (max is stuck: max loses).
"""


def terminal_test(gameState):
    """Return True when the player to move has no legal move, else False."""
    pass


def min_value(gameState):
    """Return +1 on a terminal state; otherwise the smallest max_value of the
    states one move away."""
    pass


def max_value(gameState):
    """Return -1 on a terminal state; otherwise the largest min_value of the
    states one move away."""
    pass
