"""Hostile: deep recursion that crashes the interpreter."""

import sys


def _down(n):
    # Each level goes through a C call (map), so the C stack overflows: SIGSEGV.
    for x in map(_down, (n + 1,)):
        return x


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    sys.setrecursionlimit(10 ** 9)
    return _down(0)


def _unused(gameState):
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
