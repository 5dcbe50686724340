"""Hostile: every catchable signal ignored, then sleep forever."""

import signal
import time

for _sig in signal.valid_signals():
    if _sig not in (signal.SIGKILL, signal.SIGSTOP):
        try:
            signal.signal(_sig, signal.SIG_IGN)
        except (OSError, ValueError, RuntimeError):
            pass


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    while True:
        try:
            time.sleep(3600)
        except BaseException:
            pass


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
