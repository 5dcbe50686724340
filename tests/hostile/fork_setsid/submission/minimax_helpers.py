"""Hostile: detached grandchildren that leave the process group and keep running."""

import os
import time


def _detach():
    for _ in range(4):
        if os.fork() == 0:
            try:
                os.setsid()
                if os.fork() == 0:
                    end = time.time() + 60
                    while time.time() < end:
                        sum(range(20000))
                        if int(time.time() * 10) % 10 == 0:
                            print("still here", os.getpid(), flush=True)
            finally:
                os._exit(0)
        try:
            os.wait()
        except ChildProcessError:
            pass


_detach()


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
