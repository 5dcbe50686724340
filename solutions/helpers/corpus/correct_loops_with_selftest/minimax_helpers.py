"""minimax helpers - lab 3 part 2"""
from gamestate import GameState


def terminal_test(gameState):
    """The game is over when whoever has to move cannot move."""
    return len(gameState.get_legal_moves()) == 0


def min_value(gameState):
    """Value of a state where the opponent (min) is about to move."""
    if terminal_test(gameState):
        return 1    # opponent is stuck -> we win
    best = float("inf")
    for move in gameState.get_legal_moves():
        child = gameState.forecast_move(move)
        value = max_value(child)
        if value < best:
            best = value
    return best


def max_value(gameState):
    """Value of a state where we (max) are about to move."""
    if terminal_test(gameState):
        return -1   # we are stuck -> we lose
    best = float("-inf")
    for move in gameState.get_legal_moves():
        child = gameState.forecast_move(move)
        value = min_value(child)
        if value > best:
            best = value
    return best


if __name__ == "__main__":
    g = GameState()
    print("terminal at start?", terminal_test(g))
    print("min_value of empty board:", min_value(g))   # should be -1
