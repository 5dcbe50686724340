"""How a run ends: the errors that end it with no verdict, how its wait ended
(``Timed``), and the Run a sandbox hands back, made of what it wrote (``finished``)."""

from dataclasses import dataclass
from typing import Any

from grader.contracts import events
from grader.contracts.owntime import OwnClock
from grader.contracts.run import Run
from grader.exercises import Limits


class SandboxUnavailable(Exception):
    """The grader can't run a sandbox here: a grader-side error, never a zero."""


class Cancelled(Exception):
    """The run was stopped from outside (a batch interrupted twice): no verdict."""


@dataclass
class Timed:
    """How a run's wait ended, and what it used."""

    ended: bool  # on its own (else stopped: over its limit, or starved)
    overloaded: bool
    used: dict[str, float]


def finished(backend: str, limits: Limits, results: bytes | bytearray, log: bytes | bytearray,
             timed: Timed, clock: OwnClock, **facts: Any) -> Run:
    """The Run of a sandbox, from the raw bytes of its results channel and log, and
    how its wait ended (``timed``, on ``clock``). A run its supervisor said was
    starved is overloaded too: it has no verdict."""
    parsed = events.parse(bytes(results).decode("utf-8", "replace"))
    starved = timed.overloaded or bool(events.first(parsed, "overloaded"))
    return Run(backend=backend, limits=limits.facts(), events=parsed,
               log=bytes(log).decode("utf-8", "replace"),
               timed_out=not timed.ended and not starved, overloaded=starved, time=timed.used,
               kernel_clock=clock.kernel, **facts)
