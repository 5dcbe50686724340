"""Hostile: reads stdin."""

import os
import sys

print("stdin:", repr(sys.stdin.read()))
try:
    print("input:", repr(input("password? ")))
except EOFError:
    print("input: EOF")
try:
    print("fd 0:", repr(os.read(0, 1024)))
except OSError as exc:
    print("fd 0:", exc)


def terminal_test(gameState):
    sys.stdin.read()
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
