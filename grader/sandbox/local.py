"""The local sandbox: a subprocess in a fresh temporary folder.

Where bubblewrap is installed it is a boundary (see ``bubblewrap``): the
supervisor and each worker run in views of their own, never as root. Without
it, it limits and tidies up but isolates nothing: the student's code runs as
the grading user, on this machine, and so it refuses to run as root.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from grader import games
from grader.contracts import job as jobs
from grader.contracts import places
from grader.contracts.events import RESULTS_CAP
from grader.contracts.run import Run
from grader.exercises import Exercise, Limits
from grader.intake import Submission
from grader.sandbox import bubblewrap, cgroups, judges
from grader.sandbox.outcome import SandboxUnavailable, finished
from grader.sandbox.pipes import LOG_CAP, join_readers, read_capped
from grader.sandbox.staging import scrubbed_env, stage
from grader.sandbox.timing import clock_of, readable_clock, run_group, wait

SUPERVISOR = places.PACKAGE / "harness" / "runtime" / "supervisor.py"
AS_ROOT = ("the local sandbox will not run students' code as root without bubblewrap: "
           "install it (apt-get install bubblewrap), grade in Docker (--sandbox docker), "
           "or run minimax-grader as an unprivileged user")


def is_boundary() -> bool:
    """Whether the local sandbox is a security boundary here (bubblewrap works)."""
    return bubblewrap.command() is not None


class LocalSandbox:
    """``bubblewrap=False``: never in bubblewrap (for comparing, as an ordinary user)."""

    name = "local"

    def __init__(self, bubblewrap: bool = True) -> None:
        self.bubblewrap = bubblewrap

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> Run:
        wrapped = self.bubblewrap and is_boundary()
        judges.compile_harness()
        if wrapped:
            return _judged(exercise, submission, limits, cancel)
        if os.geteuid() == 0:
            raise SandboxUnavailable(AS_ROOT)
        with tempfile.TemporaryDirectory(prefix="minimax-grader-") as temp, \
                run_group() as group:
            work = Path(temp)
            stage(exercise, submission, limits, work, readable_clock(group))
            # Without "..": an interpreter started as ../.venv/bin/python names a
            # folder that the supervisor's view does not hold.
            command = [os.path.abspath(sys.executable), "-I", "-B", str(SUPERVISOR),
                       str(work / jobs.FILE)]
            return supervise(self.name, command, limits, cancel, group, cwd=work,
                             env=scrubbed_env(work, games.added().get(exercise.game)),
                             cleanup=lambda: kill_leftovers(work))

    def prepare(self, exercise: Exercise, limits: Limits) -> None:
        """Start a warm judge for ``exercise`` ahead of its run, where none is idle."""
        if self.bubblewrap and is_boundary():
            judges.POOL.prepare(judges.kind_of(exercise))


def _judged(exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None) -> Run:
    """Run the suite in a fork of a warm judge (``judges``), its workers in their
    own view inside the judge's. Killing the run's group ends every process of
    the run: the judge's child, its zygote's view and the workers in it."""
    with judges.POOL.lent(judges.kind_of(exercise)) as judge, run_group() as group:
        work = judge.workspace()
        try:
            settings = stage(exercise, submission, limits, work, readable_clock(group))
            wrap = bubblewrap.worker_prefix(settings["submission"], settings["provided"])
            return judge.run(work / jobs.FILE, limits, cancel, wrap=wrap, group=group)
        finally:
            shutil.rmtree(work, ignore_errors=True)


def kill_leftovers(work: Path, passes: int = 10) -> int:
    """Kill every process of this run still alive; how many were killed.

    The student's workers start sessions of their own, so killing the
    supervisor's session misses them: a worker that sleeps or loops would
    outlive its run. They are found by the scrubbed environment they
    inherited, whose TMPDIR is this run's own work folder. Several passes,
    for processes that fork while they are being killed.
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


def supervise(backend: str, command: Sequence[str], limits: Limits,
              cancel: threading.Event | None = None, group: cgroups.Group | None = None, *,
              cwd: str | Path, env: dict[str, str], stdin: bytes = b"",
              cleanup: Callable[[], object] | None = None) -> Run:
    """Run a supervisor's ``command`` until it ends or passes the run's limit: its Run.

    It runs in the run's control group ``group`` (when there is one), which
    times it (``timing.wait``). ``stdin`` is fed to it; its stdout is the
    results channel and its stderr its log, both read with caps. Its whole
    session is killed whatever happens (and the group: every process of the
    run), and then ``cleanup()`` (when given) is called.
    """
    clock = clock_of(group)
    process = subprocess.Popen(
        group.command(list(command)) if group else command, cwd=cwd, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True,
    )
    results, log = bytearray(), bytearray()
    pipes = [
        threading.Thread(target=_feed, args=(process.stdin, stdin)),
        threading.Thread(target=read_capped, args=(process.stdout, RESULTS_CAP, results)),
        threading.Thread(target=read_capped, args=(process.stderr, LOG_CAP, log)),
    ]
    for pipe in pipes:
        pipe.start()
    try:
        timed = wait(lambda: process.poll() is not None, lambda seconds: _pause(process, seconds),
                     limits.total_seconds, clock, cancel)
    finally:
        _kill_group(process)
        if group:
            group.kill()
        if cleanup:
            cleanup()
    join_readers(pipes)
    return finished(backend, limits, results, log, timed, clock, exit_code=process.returncode)


def _feed(stream: IO[bytes], data: bytes) -> None:
    """Write ``data`` and close, in a thread: a process that reads slowly never
    holds up the deadline, and one that has ended reads nothing."""
    try:
        stream.write(data)
        stream.close()
    except OSError:
        pass


def _pause(process: subprocess.Popen[bytes], seconds: float) -> None:
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        pass


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the supervisor's whole session, stragglers included."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()
