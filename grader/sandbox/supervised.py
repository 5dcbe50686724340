"""A supervisor started per grading and watched to its end: Gradescope's machine's box.

Where no warm judge runs (the launcher sandbox, ``machine``), the run's
supervisor is a process of its own, started for the one grading. This runs
it, feeds it its job, reads its results channel and log with caps, times it
on the run's clock, and kills what is left of it.
"""

import os
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from grader.contracts.events import RESULTS_CAP
from grader.contracts.run import Run
from grader.exercises import Limits
from grader.sandbox import cgroups
from grader.sandbox.outcome import finished
from grader.sandbox.pipes import LOG_CAP, join_readers, read_capped
from grader.sandbox.timing import clock_of, wait


def supervise(backend: str, command: Sequence[str], limits: Limits,
              cancel: threading.Event | None = None, group: cgroups.Group | None = None, *,
              cwd: str | Path, env: dict[str, str], stdin: bytes = b"",
              cleanup: Callable[[], object] | None = None) -> Run:
    """Run a supervisor's ``command`` until it ends or passes the run's limit: its
    Run (``backend``: the sandbox's name).

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
