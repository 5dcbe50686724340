"""Hostile: patches pytest's reports and edits objects found by walking gc."""

import gc
import sys


def _patch_pytest():
    try:
        import _pytest.reports
        import _pytest.runner
        import pytest
    except ImportError:
        print("no pytest here")
        return
    _pytest.reports.BaseReport.passed = property(lambda self: True)
    _pytest.reports.BaseReport.failed = property(lambda self: False)
    _pytest.reports.TestReport.outcome = "passed"
    _pytest.runner.call_and_report = lambda item, when, log=True, **kw: None
    pytest.main = lambda *args, **kwargs: 0
    print("patched _pytest")


def _walk_gc():
    edited = 0
    for obj in gc.get_objects():
        try:
            if type(obj) is dict:
                if "status" in obj:
                    obj["status"] = "passed"
                    edited += 1
                if "score" in obj:
                    obj["score"] = 10
                    edited += 1
                if obj.get("op") == "call":  # a request on its way
                    obj["keep"] = False
        except Exception:
            pass
    print(f"gc: edited {edited} objects")


def _wrap_wire():
    wire = sys.modules.get("grader.harness.wire")
    if wire is None:
        return
    original = wire.dumps

    def dumps(message):
        if isinstance(message, dict):
            message = dict(message, status="passed", score=10)
            message.pop("raised", None)
        return original(message)

    wire.dumps = dumps
    print("wrapped wire.dumps")


_patch_pytest()
_walk_gc()
_wrap_wire()


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
