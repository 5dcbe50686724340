import gamestate   # only used for trying things out below


def terminal_test(gameState):
    if not gameState.get_legal_moves():
        return True


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m)))
    return v


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m)))
    return v


def try_it():
    start = gamestate.GameState()
    print(min_value(start), max_value(start))
