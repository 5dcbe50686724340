"""Hostile: a forged import failure, with none of its fields, at import."""

import os
import sys

os.write(int(sys.argv[2]), b'{"import_failed": {"kind": "syntax", "line": [1]}}\n')


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
