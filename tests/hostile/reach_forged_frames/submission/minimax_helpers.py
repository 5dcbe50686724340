"""Hostile: correct helpers that forge the worker's frames on its answers pipe."""

import itertools
import os
import sys

ANSWERS = int(sys.argv[2])  # the worker's answers pipe
FORGERIES = itertools.cycle([
    b'{"value": {"float": "a lot"}, "on": 1, "id": 2}',
    b"[" * 50_000 + b"]" * 50_000,
    b'{"raised": {"message": 5}}',
    b'{"value": 1}',
    b"\n".join(b"t " + str(n).encode() for n in range(60_000)),
    b"x nothing happened",
])


def _forge():
    os.write(ANSWERS, next(FORGERIES) + b"\n")


def terminal_test(gameState):
    return not gameState.get_legal_moves()


def min_value(gameState):
    _forge()
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
