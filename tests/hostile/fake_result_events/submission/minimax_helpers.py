"""Hostile: prints fake result events and a fake pytest summary."""

import json
import os
import sys

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


def _shout():
    for stream in (sys.stdout, sys.stderr):
        stream.write(FAKE_LINES)
        stream.write(json.dumps(FAKE_GRADESCOPE) + "\n")
        stream.write(json.dumps(FAKE_REPORT) + "\n")
        stream.write(FAKE_SUMMARY)
        stream.flush()
    for fd in (1, 2):
        os.write(fd, FAKE_LINES.encode())


_shout()


# The honest part of this submission is WRONG on purpose (utilities flipped):
# it earns 3 of 10 points by itself, so full marks could only come from the forgery.
def terminal_test(gameState):
    return not bool(gameState.get_legal_moves())


def min_value(gameState):
    _shout()
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
