"""The local sandbox: the warm judge on this machine, its workers beside it.

Every run is a fork of a warm judge (``judges``). Where bubblewrap works, the
local sandbox is a boundary (layout ``bubblewrap``, see ``bubblewrap``): the
judge and each run's workers run in views of their own, never as root.
Without it (layout ``bare``), the same judge runs unwrapped and the workers
beside it: it limits and tidies up but isolates nothing, the student's code
running as the grading user, on this machine, and so it refuses to run as
root. Which of the two a host gets is the table's (``grader.layouts``).
"""

import contextlib
import os
import shutil
import signal
import threading
from pathlib import Path

from grader.contracts import job as jobs
from grader.contracts.run import Run
from grader.exercises import Exercise, Limits
from grader.intake import Submission
from grader.layouts import AS_ROOT, LAYOUTS
from grader.sandbox import bubblewrap, judges
from grader.sandbox.outcome import SandboxUnavailable
from grader.sandbox.staging import stage
from grader.sandbox.timing import readable_clock, run_group


def is_boundary() -> bool:
    """Whether the local sandbox is a security boundary here (bubblewrap works)."""
    return bubblewrap.command() is not None


class LocalSandbox:
    """``bubblewrap=False``: never in bubblewrap (the bare layout, as an ordinary user)."""

    name = "local"

    def __init__(self, bubblewrap: bool = True) -> None:
        self.layout = LAYOUTS["bubblewrap" if bubblewrap and is_boundary() else "bare"]

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> Run:
        """Run the suite in a fork of a warm judge (``judges``), the workers in a
        view of their own inside the judge's (bubblewrap) or beside it (bare).
        Killing the run's group ends every process of the run; without bubblewrap
        the workers, which start sessions of their own, are also found and killed
        (``kill_leftovers``)."""
        wrapped = self.wrapped
        with judges.POOL.lent(self._kind(exercise)) as judge, run_group() as group:
            work = judge.workspace()
            try:
                settings = stage(exercise, submission, limits, work, readable_clock(group))
                wrap = (bubblewrap.worker_prefix(settings["submission"], settings["provided"])
                        if wrapped else None)
                return judge.run(work / jobs.FILE, limits, cancel, wrap=wrap, group=group)
            finally:
                if not wrapped:
                    kill_leftovers(work)
                shutil.rmtree(work, ignore_errors=True)

    def prepare(self, exercise: Exercise, limits: Limits) -> None:
        """Start a warm judge for ``exercise`` ahead of its run, where none is idle."""
        with contextlib.suppress(SandboxUnavailable):  # the run itself says why
            judges.POOL.prepare(self._kind(exercise))

    @property
    def wrapped(self) -> bool:
        """Whether the judge and the workers run in bubblewrap's views."""
        return self.layout.name == "bubblewrap"

    def _kind(self, exercise: Exercise) -> judges.Kind:
        """The judge the run needs; never an unwrapped one as root."""
        if not self.wrapped and os.geteuid() == 0:
            raise SandboxUnavailable(AS_ROOT)
        return judges.kind_of(exercise, wrapped=self.wrapped)


def kill_leftovers(work: Path, passes: int = 10) -> int:
    """Kill every process of this run still alive; how many were killed.

    The student's workers start sessions of their own, so killing the judge's
    child misses them: a worker that sleeps or loops would outlive its run.
    They are found by the environment they inherited from it, whose TMPDIR is
    this run's own work folder. Several passes, for processes that fork while
    they are being killed.
    """
    marker = f"TMPDIR={work}".encode()
    killed = 0
    for _ in range(passes):
        found = [pid for pid in _own_pids() if marker in _environ(pid)]
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except (ProcessLookupError, PermissionError):
                pass
        if not found:
            break
    return killed


def _own_pids() -> list[int]:
    try:
        entries = os.listdir("/proc")
    except OSError:  # no /proc here: nothing to find
        return []
    uid, me = os.getuid(), os.getpid()
    pids = []
    for entry in entries:
        if entry.isdigit() and int(entry) != me:
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    pids.append(int(entry))
            except OSError:
                pass
    return pids


def _environ(pid: int) -> list[bytes]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return handle.read().split(b"\0")
    except OSError:
        return []
