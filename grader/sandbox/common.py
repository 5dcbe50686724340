"""What every sandbox backend shares: the Sandbox protocol, the Run it hands
back, the job it gives the supervisor, and the waiting and capping of a run."""

import io
import tarfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import PurePath
from typing import Any, NoReturn, Protocol

from grader.contracts import events
from grader.contracts import job as jobs
from grader.contracts.run import Run as Run  # re-exported: the backends hand it back
from grader.exercises import Exercise, Limits
from grader.intake import Submission

LOG_CAP = 64 << 10  # bytes of the supervisor's own log kept
POLL_SECONDS = 0.1  # how often a waiting run looks at its cancel flag


class Sandbox(Protocol):
    """Where a submission's suite runs: each backend below is one."""

    name: str

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> "Run":
        """Run the exercise's suite on the submission; Cancelled when ``cancel`` is set."""


class SandboxUnavailable(Exception):
    """The grader can't run a sandbox here: a grader-side error, never a zero."""


class Cancelled(Exception):
    """The run was stopped from outside (a batch interrupted twice): no verdict."""


def job(exercise: Exercise, limits: Limits, suite: str | PurePath, work: PurePath,
        address_space: bool = True) -> jobs.Job:
    """The supervisor's instructions, as plain data, for a run in ``work``.

    ``address_space``: whether each process's address space is capped (at four
    times the memory limit), for when nothing else caps the memory.
    """
    return {
        "exercise": exercise.id,
        "suite": str(suite),
        "submission": str(work / "submission"),
        "provided": str(work / "provided"),
        "provides": list(exercise.provides),
        "modules": exercise.modules,
        "game": exercise.game,
        "limits": {
            "call_seconds": limits.call_seconds,
            "test_seconds": limits.test_seconds,
            "output_bytes": limits.output_bytes,
            "memory_mb": limits.memory_mb,
            # Address space is not memory: threads reserve stacks and malloc
            # arenas they never touch, hence the headroom.
            "address_space_mb": 4 * limits.memory_mb if address_space else 0,
            "processes": limits.processes,
            "file_bytes": limits.file_bytes,
            "total_seconds": limits.total_seconds,
        },
        "tests": {t.name: ({"seconds": t.seconds} if t.seconds else {}) for t in exercise.tests},
    }


def tar(files: Mapping[str, bytes]) -> bytes:
    """A tar archive of regular files, readable by all: ``files`` maps names to bytes."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def job_archive(settings: jobs.Job, submission: Submission) -> bytes:
    """The job for the launcher's stdin: job.json and the student's files."""
    return tar({jobs.FILE: jobs.dumps(settings),
                **{f"submission/{n}": d for n, d in submission.files.items()}})


def wait(done: Callable[[], bool], pause: Callable[[float], object], seconds: float,
         cancel: threading.Event | None = None) -> bool:
    """Wait up to ``seconds`` for ``done()``; False when the time ran out.

    ``pause(t)`` blocks at most ``t`` seconds (a join or a wait); between
    pauses ``cancel`` (a threading.Event) is checked, and raises Cancelled.
    """
    deadline = time.monotonic() + seconds
    while not done():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        if cancel is not None and cancel.is_set():
            raise Cancelled()
        pause(min(left, POLL_SECONDS))
    return True


def keep(sink: bytearray, data: bytes, cap: int) -> None:
    """Append to ``sink`` what fits under ``cap`` bytes; the rest is dropped."""
    if len(sink) < cap:
        sink += data[: cap - len(sink)]


def finished(backend: str, limits: Limits, results: bytes | bytearray, log: bytes | bytearray,
             **facts: Any) -> Run:
    """The Run of a sandbox, from the raw bytes of its results channel and log."""
    return Run(backend=backend, limits=limits.facts(),
               events=events.parse(bytes(results).decode("utf-8", "replace")),
               log=bytes(log).decode("utf-8", "replace"), **facts)


class Unavailable:
    """Stands in for a backend that can't run here: every run is a grader error."""

    def __init__(self, name: str, why: str) -> None:
        self.name = name
        self.why = why

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> NoReturn:
        raise SandboxUnavailable(self.why)
