"""Staging a run: its job (the supervisor's instructions, as plain data), its
folder (the job, the student's files and the provided modules), the tar
archive a container is handed them in, and the environment it runs with."""

import io
import tarfile
from collections.abc import Mapping
from pathlib import Path, PurePath

from grader import games
from grader.contracts import job as jobs
from grader.contracts.provided import provide
from grader.exercises import Exercise, Limits
from grader.intake import Submission


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


def scrubbed_env(home: Path, game: Path | None) -> dict[str, str]:
    """Only what the harness needs: no host secrets reach the student. An
    instructor's ``game`` (its folder) is found where it lies (``grader.games.added``)."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
           "TMPDIR": str(home), "MALLOC_ARENA_MAX": "2"}
    return env | ({games.ADDED: str(game.parent.parent)} if game else {})
