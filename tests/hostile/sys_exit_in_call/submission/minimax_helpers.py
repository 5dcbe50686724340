"""Hostile: sys.exit(0) / SystemExit inside graded calls."""

import sys


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    print("4 passed in 0.01s")
    sys.exit(0)


def max_value(gameState):
    raise SystemExit("10/10 points: 4 of 4 tests passed.")
