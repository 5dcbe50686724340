"""Hostile: answers with the grader's own reference search, if it can load it."""

import glob
import importlib.util
import os

REFERENCE = None
TRIED = []


def _load():
    global REFERENCE
    try:
        from grader.harness.search import Search
        REFERENCE = Search()
        return "import grader.harness.search"
    except Exception as exc:
        TRIED.append(f"import: {exc!r}")
    candidates = ["/opt/minimax-grader/grader/harness/search.py",
                  "/work/main/grader/harness/search.py"]
    for top in ("/opt", "/work", "/srv", "/home", "/root", "/usr/local", "/app", "/tmp"):
        candidates += glob.glob(f"{top}/**/search.py", recursive=True)
    candidates += glob.glob("/proc/[0-9]*/root/opt/minimax-grader/grader/harness/search.py")
    candidates += glob.glob("/proc/[0-9]*/cwd/../opt/minimax-grader/grader/harness/search.py")
    for path in candidates:
        try:
            spec = importlib.util.spec_from_file_location("stolen_search", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            REFERENCE = module.Search()
            return path
        except Exception as exc:
            TRIED.append(f"{path}: {exc!r}")
    return None


HOW = _load()
print("stolen from:", HOW, "tried:", TRIED[:10])


# The honest part of this submission is WRONG on purpose (utilities flipped):
# it earns 3 of 10 points by itself, so full marks could only come from the forgery.
def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if REFERENCE:
        return REFERENCE.min_value(gameState)
    if terminal_test(gameState):
        return -1
    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m)))
    return v


def max_value(gameState):
    if REFERENCE:
        return REFERENCE.max_value(gameState)
    if terminal_test(gameState):
        return 1
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m)))
    return v
