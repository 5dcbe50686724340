"""terminal_test, min_value, max_value"""


def terminal_test(gameState):
    return len(gameState.get_legal_moves()) == 0


def min_value(gameState):
    if terminal_test(gameState):
        return -1          # the player to move is stuck, so they lost
    lowest = float("inf")
    for move in gameState.get_legal_moves():
        lowest = min(lowest, max_value(gameState.forecast_move(move)))
    return lowest


def max_value(gameState):
    if terminal_test(gameState):
        return -1          # the player to move is stuck, so they lost
    highest = float("-inf")
    for move in gameState.get_legal_moves():
        highest = max(highest, min_value(gameState.forecast_move(move)))
    return highest
