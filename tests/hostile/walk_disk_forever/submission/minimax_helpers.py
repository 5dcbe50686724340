"""Hostile: min_value walks the disk forever (read-only: it only looks)."""

import os


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    while True:
        for root, dirs, files in os.walk("/"):
            for name in files:
                try:
                    os.stat(os.path.join(root, name))
                except OSError:
                    pass


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m)))
    return v
