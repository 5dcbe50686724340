"""Hostile: dumps os.environ into its output."""

import os
import sys

print("ENVIRON", dict(os.environ))
print("ENVIRON", dict(os.environ), file=sys.stderr)


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    print(sorted(os.environ.items()))
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
