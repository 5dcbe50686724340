"""Hostile: a forged reply whose set of ints all share one hash."""

import json
import os
import sys

try:
    ANSWERS = int(sys.argv[2])
except (IndexError, ValueError):
    ANSWERS = None

MODULUS = 2**61 - 1  # an int's hash is the int modulo this


def _flood():
    """A reply of about 1 MB (the pipe takes 1 MiB a line)."""
    items, size = [], 0
    while size < 1_000_000:
        items.append(len(items) * MODULUS)
        size += len(str(items[-1])) + 2
    return json.dumps({"value": {"set": items}, "calls": 0, "status": "passed"}).encode() + b"\n"


def terminal_test(gameState):
    if ANSWERS is not None:
        try:
            os.write(ANSWERS, _flood())
        except OSError:
            pass
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
