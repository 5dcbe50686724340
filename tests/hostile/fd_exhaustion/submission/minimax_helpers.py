"""Hostile: uses up every file descriptor."""

import os

import gamestate  # noqa: F401  (imported before the descriptors run out)

_KEPT = []
try:
    while True:
        _KEPT.append(os.open(os.devnull, os.O_RDONLY))
except OSError:
    pass
for _fd in _KEPT[:20]:
    os.close(_fd)
try:
    while True:
        _KEPT.extend(os.pipe())
except OSError:
    pass
print("descriptors held:", len(_KEPT))


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


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
