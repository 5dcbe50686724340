"""The run's own time: what every limit is measured on, by both sides.

A run (the supervisor, its launcher and the student's workers) is a control
group of its own: the host reads it from its folder, the supervisor from the
folder the job names as the sandbox sees it (bound read-only; a
container's own ``/sys/fs/cgroup``). From it the kernel tells
two things no process in the run can change: the CPU time of every task that
has been in the group (``cpu.stat``), and how long some task of it waited for
a CPU that the machine gave to others (``cpu.pressure``, "some"). A step of
the student's code is then over its limit when either its CPU time or its own
wall time (the wall clock less that wait: a sleep or a blocking read counts,
waiting behind other work does not) passes the limit. A busy machine slows a
run without costing it anything; only a backstop on the wall clock, far above
the limit, ends a step that the machine has starved: ``Overloaded``, which
stops the run ungraded and uncharged, to be graded again.

The group's wait is some task's, not the step's: a run could make it cover a
sleep, with a thread of its own that is always ready to run and seldom runs (a
low priority, the idle class, or many threads on a busy machine). So from the
first look at the clocks while a step has not answered (a fraction of a second
in; a quick step is never looked at), its own time grows by the wall time less
the run-queue wait of the thread that runs the student's call (the kernel's
per-task schedstat, ``thread_wait``), and by the whole wall time where that
thread lowered its own priority or its wait can't be read: a sleeping or
blocked call is charged its sleep whatever its siblings wait for. The group's
wait is at least any one task's, so this can only be stricter.

Groups are cgroup v2's: a host with no v2 hierarchy (v1 alone) makes none.
Where the job names no group, or its files can't be read (a kernel that keeps
no pressure), the clock is the wall clock (``kernel`` is False) and the run's
notes say so.
"""

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# (seconds waited for a CPU, CPU seconds) of a run's group so far, or None
# where they can't be read.
Source = Callable[[], "tuple[float, float] | None"]
# Seconds the thread running the student's call has waited in the run queue so
# far, or None where that wait doesn't count or can't be read (``thread_wait``).
ThreadWait = Callable[[], "float | None"]

# The scheduling policies that run a thread behind the others: SCHED_BATCH, SCHED_IDLE.
_LOWER_POLICIES = (3, 5)

# The wall clock's backstop of a limit: this many times the limit, and this
# much more at least (a honest run slowed 13 times by 24 busy neighbours on two
# cores stays far below it: the exercises' limits are 10 times their slowest
# correct case).
BACKSTOP_FACTOR = 20
BACKSTOP_MIN_SECONDS = 60


class Overloaded(Exception):
    """The machine starved the run: its wall time passed the backstop while its
    own time was still within its limit. Not the student's doing: no verdict."""


def backstop(seconds: float) -> float:
    return max(seconds * BACKSTOP_FACTOR, seconds + BACKSTOP_MIN_SECONDS)


@dataclass(frozen=True)
class Instant:
    """A moment on every clock at once: wall, own (wall less the wait) and CPU."""

    wall: float
    own: float
    cpu: float


@dataclass(frozen=True)
class Deadline:
    """When a step is over its limit: on the own clock, on the CPU, or (the machine's
    fault) on the wall clock's backstop."""

    own: float
    cpu: float
    wall: float

    def sooner(self, other: "Deadline") -> "Deadline":
        return Deadline(min(self.own, other.own), min(self.cpu, other.cpu),
                        min(self.wall, other.wall))


@dataclass
class _Watch:
    """A step watched from a first look at the clocks: when, its own time left by
    the group's clock then, and its calling thread's wait then (None: not counted)."""

    deadline: Deadline
    wall: float
    left: float
    waited: float | None


def thread_wait(pid: int, tid: int | None = None) -> float | None:
    """The run-queue wait of a thread (the main thread of ``pid`` by default), in
    seconds, from ``/proc``; None where it can't be read or where the thread runs
    behind the reader's priority (a higher nice, or the batch or idle policy): a
    wait it chose. Read by the process that started it, at its own priority, in
    its PID namespace."""
    task = f"/proc/{pid}/task/{tid or pid}"
    try:
        with open(f"{task}/schedstat", "rb") as handle:
            waited = int(handle.read().split()[1])
        with open(f"{task}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        nice, policy = int(fields[16]), int(fields[38])  # stat's 19th and 41st
    except (OSError, ValueError, IndexError):
        return None
    if policy in _LOWER_POLICIES or nice > os.getpriority(os.PRIO_PROCESS, os.getpid()):
        return None
    return waited / 1e9


class _GroupFiles:
    """A cgroup v2 group's cpu.pressure and cpu.stat, opened once and read again at
    every call: a step's deadline is taken at every answer of the student's code,
    and opening the two files each time cost ten times the reads."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.fds: tuple[int, int] | None = None

    def __call__(self) -> tuple[float, float] | None:
        try:
            if self.fds is None:
                self.fds = self._open()
            pressure, stat = (os.pread(fd, 4096, 0) for fd in self.fds)
            some = next(line for line in pressure.splitlines() if line.startswith(b"some "))
            usage = next(line for line in stat.splitlines() if line.startswith(b"usage_usec "))
            return int(some.rsplit(b"total=", 1)[1]) / 1e6, int(usage.split()[1]) / 1e6
        except (OSError, StopIteration, ValueError, IndexError):
            return None

    def _open(self) -> tuple[int, int]:
        pressure = os.open(self.folder / "cpu.pressure", os.O_RDONLY | os.O_CLOEXEC)
        try:
            return pressure, os.open(self.folder / "cpu.stat", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            os.close(pressure)
            raise

    def __del__(self) -> None:
        for fd in self.fds or ():
            os.close(fd)


def v2_folder(folder: Path) -> Source:
    """The source of a cgroup v2 group's folder: its cpu.pressure and cpu.stat."""
    return _GroupFiles(folder)


def charged(run: Source, judge: Source) -> Source:
    """``run``'s source, with the CPU time of ``judge`` (the group of the judge's
    fork that served the run, outside it) added: the judge's work on what the
    run sent counts against the run's own limits."""

    def read() -> tuple[float, float] | None:
        ours, its = run(), judge()
        return ours if ours is None or its is None else (ours[0], ours[1] + its[1])

    return read


class OwnClock:
    """The clocks of a run's group, from ``source`` (or the folder the job names);
    the wall clock alone without one."""

    def __init__(self, source: Source | str | None = None) -> None:
        self.source = v2_folder(Path(source)) if isinstance(source, str) and source \
            else source if callable(source) else None
        self.kernel = self.source is not None and self.source() is not None
        self._watch: _Watch | None = None

    def now(self) -> Instant:
        wall = time.monotonic()
        read = self.source() if self.source is not None and self.kernel else None
        if read is None:
            return Instant(wall, wall, wall)
        waited, cpu = read
        return Instant(wall, wall - waited, cpu)

    def deadline(self, seconds: float, start: Instant | None = None) -> Deadline:
        """The deadline of a limit of ``seconds`` from ``start`` (now where not given)."""
        start = start or self.now()
        return Deadline(start.own + seconds, start.cpu + seconds,
                        start.wall + backstop(seconds))

    def over(self, deadline: Deadline, thread: ThreadWait | None = None) -> bool:
        """Whether the student's own time passed ``deadline``; Overloaded where only
        the machine's wall clock did. ``thread``: the wait of the thread running
        the step (see above), read at every look from the first on."""
        now = self.now()
        if now.own >= deadline.own or now.cpu >= deadline.cpu:
            return True
        if thread is not None and self.kernel and self._thread_over(deadline, now, thread()):
            return True
        if now.wall >= deadline.wall:
            raise Overloaded(f"the machine was too busy to time the run: its wall clock passed "
                             f"the backstop while its own time was {deadline.own - now.own:.1f} "
                             "s short of its limit")
        return False

    def _thread_over(self, deadline: Deadline, now: Instant, waited: float | None) -> bool:
        """Whether the step's own time, by its calling thread's wait since the
        watch of ``deadline`` started, reached it (the first look starts it)."""
        watch = self._watch
        if watch is None or watch.deadline is not deadline:
            self._watch = _Watch(deadline, now.wall, deadline.own - now.own, waited)
            return False
        if watch.waited is None or waited is None or waited < watch.waited:
            watch.waited, discount = None, 0.0  # once not counted, never again in the step
        else:
            discount = waited - watch.waited
        return now.wall - watch.wall - discount >= watch.left

    def left(self, deadline: Deadline) -> float:
        """Seconds of the wall clock at least before ``deadline`` can be reached: its
        own time and CPU run no faster than the wall clock."""
        now = self.now()
        return max(0.0, min(deadline.own - now.own, deadline.cpu - now.cpu,
                            deadline.wall - now.wall))
