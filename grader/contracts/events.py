"""The result events: what a run's supervisor writes, and how the host reads them.

The supervisor writes one JSON object a line on its results channel, as
things happen, so that a run killed half-way still leaves every finished
verdict behind:

- ``start``: a test is about to run (``name``);
- ``test``: a test's verdict (``name``, ``status``, ``message``, ``mistakes``
  as ids of ``grader.contracts.hints``, ``internal`` for a grader fault,
  ``duration_ms``; and ``board``, where the message draws a position that is
  a grid: its ``columns``, ``rows`` (``label``, ``cells``), ``note`` and the
  ``drawn`` text as the message holds it);
- ``session``: once, at the end (``import_error``, the student's captured
  ``output``, ``notes``);
- ``overloaded``: the machine starved the run (a step past the wall clock's
  backstop while the student's own time was within its limit): ``why``. The
  run has no verdict then; it is graded again, uncharged;
- ``end``: pytest's exit code.

For the host every line is untrusted: the readers here keep only
well-formed events, and the report checks and escapes every field it shows.
"""

import json
import re
from collections.abc import Iterable
from typing import Any

STATUSES = ("passed", "failed", "error", "timeout")
MESSAGE_CAP = 4000  # characters of one test's message, on both sides
RESULTS_CAP = 4 << 20  # bytes of result events the host reads from one run

Event = dict[str, Any]
_CUT = re.compile(r"\.\.\. \[\d+ characters cut\]")


def capped(text: str, cap: int = MESSAGE_CAP) -> str:
    """``text`` cut after ``cap`` characters, saying how many more there were.

    A text that this cap cut already is left as it is: the supervisor caps a
    message and the host caps it again, and the note must keep the first count.
    """
    if len(text) <= cap or _CUT.fullmatch(text, cap):
        return text
    return text[:cap] + f"... [{len(text) - cap} characters cut]"


def test_name(nodeid: str) -> str:
    """The name a test's events carry: its function's, without module or parameters."""
    return nodeid.rsplit("::", 1)[-1].split("[")[0]


def line(event: Event) -> str:
    """One event as the results channel carries it."""
    return json.dumps(event) + "\n"


def start(name: str) -> Event:
    return {"event": "start", "name": name}


def verdict(name: str, status: str, message: str, mistakes: list[str], internal: bool,
            duration_ms: int, board: dict[str, Any] | None = None,
            tree: dict[str, Any] | None = None) -> Event:
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}")
    event = {"event": "test", "name": name, "status": status, "message": capped(message),
             "mistakes": mistakes, "internal": internal, "duration_ms": duration_ms}
    if board is not None:  # only then: a host of an older version reads the same event
        event["board"] = board
    if tree is not None:
        event["tree"] = tree
    return event


def session(import_error: str | None, output: dict[str, Any], notes: list[str]) -> Event:
    return {"event": "session", "import_error": import_error, "output": output, "notes": notes}


def overloaded(why: str) -> Event:
    return {"event": "overloaded", "why": capped(why, 500)}


def end(pytest_exit: int) -> Event:
    return {"event": "end", "pytest_exit": pytest_exit}


def parse(data: str) -> list[Event]:
    """The JSON objects among the lines of a results channel (others dropped)."""
    found = []
    for text in data[:RESULTS_CAP].splitlines():
        try:
            event = json.loads(text)
        except ValueError:
            continue
        if isinstance(event, dict):
            found.append(event)
    return found


def verdicts(events: Iterable[Event]) -> dict[str, Event]:
    """The well-formed ``test`` events, by test name (the first of each name)."""
    found: dict[str, Event] = {}
    for event in events:
        if (event.get("event") == "test" and isinstance(event.get("name"), str)
                and event.get("status") in STATUSES):
            found.setdefault(event["name"], event)
    return found


def first(events: Iterable[Event], kind: str) -> Event:
    """The first event of ``kind`` (``session``, ``end``), or an empty one."""
    return next((event for event in events if event.get("event") == kind), {})


def running(events: Iterable[Event], names: set[str]) -> str | None:
    """The last test started (by a well-formed ``start`` naming one of ``names``):
    the one running when a run that ended early was stopped."""
    started = [event["name"] for event in events if event.get("event") == "start"
               and isinstance(event.get("name"), str) and event["name"] in names]
    return started[-1] if started else None
