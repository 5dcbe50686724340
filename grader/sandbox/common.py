"""What every sandbox backend shares: the Sandbox protocol, the Run it hands
back, the job it gives the supervisor, and the waiting and capping of a run."""

import functools
import io
import sys
import tarfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any, NoReturn, Protocol

from grader import games
from grader.contracts import events
from grader.contracts import job as jobs
from grader.contracts.owntime import Overloaded, OwnClock, charged, v2_folder
from grader.contracts.provided import provide
from grader.contracts.run import Run as Run  # re-exported: the backends hand it back
from grader.exercises import Exercise, Limits
from grader.intake import Submission
from grader.sandbox import cgroups

LOG_CAP = 64 << 10  # bytes of the supervisor's own log kept
POLL_SECONDS = 0.1  # how often a waiting run looks at its cancel flag
PIPE_GRACE = 3  # seconds to read what is left in a run's pipes once its processes have ended


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
        address_space: bool = True, clock: str = "") -> jobs.Job:
    """The supervisor's instructions, as plain data, for a run in ``work``.

    ``address_space``: whether each process's address space is capped (at four
    times the memory limit), for when nothing else caps the memory. ``clock``:
    the folder of the run's control group as the sandbox sees it ("": none).
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
        "clock": clock,
    }


def stage(exercise: Exercise, submission: Submission, limits: Limits, work: Path,
          clock: str = "", worker_folders: list[str] | None = None) -> jobs.Job:
    """Write a run's job (``work/job.json``), the student's files and the provided
    modules into ``work``: the job. ``worker_folders``: the submission and provided
    folders as the workers see them, where they are elsewhere (a container)."""
    settings = job(exercise, limits, exercise.suite, work, clock=clock)
    if worker_folders:
        settings["worker_folders"] = worker_folders
    folder = Path(settings["submission"])
    folder.mkdir()
    for name, data in submission.files.items():
        (folder / name).write_bytes(data)
    provide(exercise.provides, settings["provided"], games.added())
    jobs.write(settings, work)
    return settings


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


@dataclass
class Timed:
    """How a run's wait ended, and what it used."""

    ended: bool  # on its own (else stopped: over its limit, or starved)
    overloaded: bool
    used: dict[str, float]


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


def keep(sink: bytearray, data: bytes, cap: int) -> None:
    """Append to ``sink`` what fits under ``cap`` bytes; the rest is dropped."""
    if len(sink) < cap:
        sink += data[: cap - len(sink)]


def scrubbed_env(home: Path, game: Path | None) -> dict[str, str]:
    """Only what the harness needs: no host secrets reach the student. An
    instructor's ``game`` (its folder) is found where it lies (``grader.games.added``)."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
           "TMPDIR": str(home), "MALLOC_ARENA_MAX": "2"}
    return env | ({games.ADDED: str(game.parent.parent)} if game else {})


def read_capped(stream: io.BufferedIOBase, cap: int, sink: bytearray) -> None:
    """Read everything (so the writer never blocks), keep the first ``cap`` bytes."""
    while chunk := stream.read1(65536):
        keep(sink, chunk, cap)


def join_readers(threads: Iterable[threading.Thread]) -> None:
    """Wait for the threads reading a run's pipes: they end with the processes
    that held the pipes, so a short wait, shared by all."""
    joined_by = time.monotonic() + PIPE_GRACE
    for thread in threads:
        thread.join(timeout=max(0, joined_by - time.monotonic()))


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


class Unavailable:
    """Stands in for a backend that can't run here: every run is a grader error."""

    def __init__(self, name: str, why: str) -> None:
        self.name = name
        self.why = why

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> NoReturn:
        raise SandboxUnavailable(self.why)
