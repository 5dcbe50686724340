"""What the student's code did wrong, as the supervisor's handle raises it: each
costs points, never crashes the grader. The worker's data in them is untrusted and
kept as capped text (``plain``)."""

from collections.abc import Iterable
from typing import Any

from grader.contracts import protocol
from grader.harness.checking.boards import Board
from grader.harness.runtime.names import meant_text

INTERFERED_AT_IMPORT = "your code interfered with the grader's channel while importing your files"


class StudentFault(Exception):
    """Something the student's code did; it costs points, never crashes the grader."""

    status = "error"
    step: int  # set where a chain of steps stopped: the index of the step that failed


class ImportFailed(StudentFault):
    def __init__(self, failure: dict[str, Any]) -> None:
        self.failure = failure
        super().__init__(describe_import_failure(failure))


class CallTimeout(StudentFault):
    status = "timeout"
    board: Board | None = None  # the position the call was given, for the report's table


class WorkerDied(StudentFault):
    pass


class TooManyCalls(StudentFault):
    """A call made far more counted calls than its step allows: stopped (with
    its tallies in order as far as it got, where it was traced)."""

    status = "failed"
    trace: list[tuple[str, str]] = []


class Raised(StudentFault):
    """The student's code raised. ``calls`` and ``entered`` are what the step's
    stand-ins tallied before it did: a search whose own timeout escapes has
    still searched, and the tests of how it searched judge that."""

    calls: protocol.Tested
    entered = 0
    trace: list[tuple[str, str]]  # the step's tallies in order, where it was traced

    def __init__(self, name: str, raised: object, meant: str | None = None) -> None:
        self.name = name
        self.calls = protocol.Tested()
        self.trace: list[tuple[str, str]] = []
        self.raised = raised = plain(raised, ("type", "message", "traceback"))
        # One line: a message of many can't pass for the report's own lines.
        raised["message"] = " ".join(raised["message"].split())
        where = f"\n{raised['traceback']}" if raised["traceback"] else ""
        why = " (it ran out of memory)" if raised["type"] == "MemoryError" else ""
        super().__init__(f"{name} raised {raised['type']}{why}: {raised['message']}"
                         f"{meant_text(meant)}{where}")


class OutOfTurn(Raised):
    """The student's function called the grader's stand-in for its other
    function on a position that does not follow from the one it was given
    (the same one, say: min_value(state) = -max_value(state)): what the
    stand-in answered there can't count."""

    def __init__(self, name: str, others: Iterable[str]) -> None:
        others = " and ".join(others)
        message = (f"{name} called {others} (the grader's, standing in for yours) on a position "
                   f"that does not follow by a move from the one {name} was given, so the "
                   f"answer can't count: call {others} on the positions after each legal move")
        super().__init__(name, {"type": "OutOfTurn", "message": message})
        self.args = (message,)


class ChangedGrader(StudentFault):
    """The student's code reached into the grader's own code or objects in its
    process: what the step would have shown can't be believed."""

    status = "failed"

    def __init__(self, what: str, doing: str) -> None:
        self.what = what
        super().__init__(f"your code reached into the grader while {doing} ({what}): this "
                         "test can't be graded, and your instructor is told")


def plain(data: object, keys: tuple[str, ...]) -> dict[str, str]:
    """Untrusted data from the worker as text fields, capped (missing ones empty)."""
    data = data if type(data) is dict else {}
    return {key: str(data.get(key, ""))[:protocol.MAX_TEXT * 20] for key in keys}


class Missing(StudentFault):
    pass


class NotAState(Missing):
    """A method called on what an earlier call returned, which lacks it: that
    call (forecast_move, say) returned something other than a state."""


def describe_import_failure(failure: dict[str, Any]) -> str:
    """The student's words for a failed import (``failure`` is the worker's data)."""
    if failure.get("kind") == "syntax":
        return (
            f"{failure['file']} has a syntax error on line {failure['line']}: "
            f"{failure['message']}\n    {failure['text']}"
        )
    if failure.get("kind") == "stopped":
        message: str = failure["message"]  # text, as ``import_failure`` keeps it
        return message
    where = f"\n{failure['traceback']}" if failure.get("traceback") else ""
    return (
        f"importing {failure['module']}.py raised {failure['type']}: "
        f"{failure['message']}{meant_text(failure.get('meant'))}{where}"
    )


def missing_text(name: str, on: object, origin: str | None, meant: str | None) -> str:
    """Why ``name`` could not be called; ``origin`` says which call made the object,
    ``meant`` what the student's files define under a name close to it."""
    if on == "module":
        return f"your file has no function or class named {name}{meant_text(meant)}"
    if origin:
        return f"{origin}, where a GameState is due: {name} can't be called on it"
    return f"your {on} object has no method named {name}{meant_text(meant)}"


def import_failure(failure: object) -> dict[str, Any]:
    """The worker's import failure as plain text fields (it is untrusted data)."""
    kept: dict[str, Any] = plain(
        failure, ("module", "type", "message", "traceback", "file", "text"))
    failure = failure if type(failure) is dict else {}
    kept["kind"] = failure.get("kind") if failure.get("kind") in ("syntax", "stopped") \
        else "crash"
    kept["line"] = failure.get("line")
    if kept["kind"] != "stopped" and (not (kept["module"] or kept["file"]) or
                                      kept["kind"] == "syntax" and type(kept["line"]) is not int):
        # no failure the worker describes: the student's code wrote it
        kept.update(kind="stopped", message=INTERFERED_AT_IMPORT)
    return kept


