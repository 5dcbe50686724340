"""Timing a run: its control group (where one can be made), the clock read
from it, and the wait for the run within its limit on that clock."""

import functools
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from grader.contracts.owntime import Overloaded, OwnClock, charged, v2_folder
from grader.sandbox import cgroups
from grader.sandbox.outcome import Cancelled, Timed

POLL_SECONDS = 0.1  # how often a waiting run looks at its cancel flag


@contextmanager
def run_group(say: bool = True) -> Iterator[cgroups.Group | None]:
    """A control group for one run, removed (what is left in it killed) after; None
    where none can be made here (said once, where ``say``)."""
    why = cgroups.available()
    if why:
        if say:
            _wall_clock_only(why)
        yield None
        return
    made = cgroups.Group()
    try:
        yield made
    finally:
        made.remove()


def readable_clock(run: cgroups.Group | None) -> str:
    """The folder of ``run`` whose files the supervisor's clock reads, or ""."""
    return str(run.folder) if run is not None else ""


@functools.cache
def _wall_clock_only(why: str) -> None:
    print(f"minimax-grader: runs are timed by the wall clock, so a busy machine counts "
          f"against students' time limits: {why}", file=sys.stderr)


def clock_of(run: cgroups.Group | None, judge: cgroups.Group | None = None) -> OwnClock:
    """The host's clock of a run's group (its CPU and its wait), or the wall clock
    where there is none. ``judge``: the group of the judge's fork that serves the
    run from outside it (Docker's), whose CPU the run is charged too."""
    if run is None:
        return OwnClock()
    if judge is not None:
        return OwnClock(charged(v2_folder(run.folder), v2_folder(judge.folder)))
    return OwnClock(v2_folder(run.folder))


def wait(done: Callable[[], bool], pause: Callable[[float], object], seconds: float,
         clock: OwnClock, cancel: threading.Event | None = None) -> Timed:
    """Wait for ``done()`` while the run's own time is within ``seconds``.

    ``pause(t)`` blocks at most ``t`` seconds (a join or a wait); between
    pauses ``cancel`` (a threading.Event) is checked, and raises Cancelled.
    The run is over its limit when its CPU or its own wall time passes
    ``seconds``, and starved (``overloaded``) when only the wall clock's
    backstop does.
    """
    start = clock.now()
    deadline = clock.deadline(seconds, start)
    ended, overloaded = True, False
    while not done():
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        try:
            if clock.over(deadline):
                ended = False
                break
        except Overloaded:
            ended, overloaded = False, True
            break
        pause(min(clock.left(deadline), POLL_SECONDS))
    now = clock.now()
    used = {"cpu_seconds": now.cpu - start.cpu, "own_seconds": now.own - start.own,
            "wall_seconds": now.wall - start.wall}
    return Timed(ended, overloaded, {k: round(max(0.0, v), 3) for k, v in used.items()})
