"""The job: what the host tells the supervisor of one run, as plain JSON.

The host writes it (``grader.sandbox.job``) as ``job.json`` in the run's work
folder; the launcher and the supervisor read it (``read``). Paths are the
sandbox's own.
"""

import json
from pathlib import Path
from typing import NotRequired, TypedDict

FILE = "job.json"
# The launcher's argument in place of a suite: its judge runs outside the sandbox
# (the Docker sandbox's, on the host), reached at the job's ``launcher_socket``.
JUDGE_OUTSIDE = "--judge-outside"


class Limits(TypedDict):
    call_seconds: float  # one call of the student's code
    test_seconds: float  # one test, unless the test has its own
    total_seconds: float  # the whole run (the host's deadline; CPU time in the sandbox)
    output_bytes: int  # the student's captured output
    memory_mb: int
    address_space_mb: int  # 0: none (something else caps the memory)
    processes: int
    file_bytes: int


class TestLimits(TypedDict, total=False):
    seconds: float


class Job(TypedDict):
    exercise: str
    suite: str  # the exercise's pytest suite
    submission: str  # the student's files
    provided: str  # where the course's provided modules are put
    provides: list[str]  # their names (``grader.contracts.provided``)
    modules: list[str]  # the student's modules, imported by the worker
    game: str  # the game whose stand-ins the worker loads (``harness.runtime.standins``)
    limits: Limits
    tests: dict[str, TestLimits]  # by test name
    # The folder of the run's control group as the sandbox sees it, read-only
    # (its cpu.stat and cpu.pressure time every limit: harness.runtime.owntime);
    # "" where there is none: the wall clock times the run.
    clock: str
    # A judge outside the sandbox (Docker's, on the host): the submission and
    # provided folders as the worker sees them, where they differ from the
    # judge's own copies above.
    worker_folders: NotRequired[list[str]]
    # The container's launcher: the socket it connects to, the judge's (its
    # path inside), and the token that tells the judge it is this run's.
    launcher_socket: NotRequired[str]
    token: NotRequired[str]
    # The launcher's: the uid the student's workers run as, a slot the host
    # holds for the run's life (``grader.sandbox.slots``).
    uid: NotRequired[int]


def write(job: Job, folder: Path) -> Path:
    path = folder / FILE
    path.write_text(json.dumps(job), encoding="utf-8")
    return path


def dumps(job: Job) -> bytes:
    return json.dumps(job).encode()


def read(path: str | Path) -> Job:
    job: Job = json.loads(Path(path).read_text(encoding="utf-8"))
    return job
