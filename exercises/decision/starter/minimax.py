"""minimax_decision: choose the best move for the player to move.

The helpers terminal_test, min_value and max_value come from
minimax_helpers (the grader gives you a correct copy).
"""

from minimax_helpers import *  # noqa: F401,F403


def minimax_decision(gameState):
    """Return the move (an (x, y) tuple) that leads to the best outcome for
    the player to move, assuming the opponent then plays as well as it can.

    The root is a max node: score each move's resulting state with min_value
    and return the move with the highest score (any of equally good moves
    is right). Return the move, not its score. You may assume the game is
    not over yet.
    """
    pass
