"""Hostile: huge nested answers that make the feedback messages huge."""


def _start(gameState):
    return getattr(gameState, "_player_locations", None) == [None, None]


def _giant():
    return [[0] * 1000 for _ in range(460)]


def terminal_test(gameState):
    if _start(gameState):
        return _giant()
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if _start(gameState):
        return _giant()
    if not gameState.get_legal_moves():
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if _start(gameState):
        return _giant()
    if not gameState.get_legal_moves():
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
