"""Hostile: right answers, then a flood of output from a thread."""

import os
import threading

_STARTED = []
_FLOODING = threading.Event()  # the flood has begun: then the answer goes out


def _flood():
    chunk = ("flood " * 10000 + "\n").encode()
    while True:
        try:
            os.write(1, chunk)
            os.write(2, chunk)
        except OSError:
            return
        _FLOODING.set()


def _after():
    if not _STARTED:
        _STARTED.append(threading.Thread(target=_flood, daemon=True))
        _STARTED[0].start()
        # On a loaded machine the thread might not run before the last answer;
        # the case is a flood that is already going on.
        _FLOODING.wait(5)


def terminal_test(gameState):
    try:
        return not bool(gameState.get_legal_moves())
    finally:
        _after()


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
