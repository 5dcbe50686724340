"""Hostile: tries to defeat pytest-timeout and friends, then loops."""

import faulthandler
import resource
import signal
import sys
import threading


def _disarm():
    signal.alarm(0)
    for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL, signal.ITIMER_PROF):
        signal.setitimer(timer, 0)
    for name in ("SIGALRM", "SIGTERM", "SIGINT", "SIGHUP", "SIGXCPU", "SIGVTALRM", "SIGPROF",
                 "SIGUSR1", "SIGUSR2", "SIGQUIT", "SIGPIPE"):
        try:
            signal.signal(getattr(signal, name), signal.SIG_IGN)
        except (OSError, ValueError, AttributeError):
            pass
    try:
        faulthandler.cancel_dump_traceback_later()
        faulthandler.disable()
    except Exception:
        pass
    for which in (resource.RLIMIT_CPU, resource.RLIMIT_AS, resource.RLIMIT_NPROC):
        try:
            resource.setrlimit(which, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except (ValueError, OSError):
            pass
    try:  # the worker's guard refuses trace functions: on with the loop all the same
        sys.settrace(None)
        threading.settrace(None)
    except RuntimeError:
        pass
    try:
        sys.setswitchinterval(1000.0)
    except Exception:
        pass


def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    _disarm()
    while True:
        try:
            while True:
                pass
        except BaseException:
            _disarm()


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
