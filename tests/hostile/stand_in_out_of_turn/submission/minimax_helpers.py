"""Each value is the other's negation on the same state (true of minimax here)."""


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    return -max_value(gameState)


def max_value(gameState):
    return -min_value(gameState)
