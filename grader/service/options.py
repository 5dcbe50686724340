"""The service's options: where its data lies, how it grades, its caps."""

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from grader import __version__, exercises, image, installs


@dataclass
class Options:
    data: Path
    database: str | None = None  # any SQLAlchemy URL; default: SQLite in ``data``
    sandbox: str = "docker"  # or "local" (by name only: it isolates nothing)
    workers: int = 2
    max_upload: int = 2 * 1024 * 1024  # bytes of one upload request
    version: str = field(default_factory=lambda: grader_version())  # reports are kept under it
    broker: str | None = None  # a Celery broker URL: grading hosts grade, not this process
    student_slots: int = 1  # grading slots one student's jobs may hold at once
    # Slots the agents' matches may hold at once (minutes each); by default all but one
    # of the workers', so that exercises' hand-ins keep flowing while agents play.
    play_slots: int | None = None
    student_quota: int = 20 * 1024 * 1024  # bytes of distinct files one student may store
    body_idle_seconds: float = 5.0  # a request body that sends nothing this long is cut off
    body_seconds: float = 60.0  # and one that takes this long in all


def grader_version() -> str:
    """The package's version and a hash of its grading image, its harness, suites
    and exercise.toml files: a fixed suite, or new points, is a new version, whose
    "regrade all" makes new reports beside the old (neither needs a new image: the
    judge and the host's facts are the host's)."""
    both = f"{image.contents_hash()}+{installs.judge_hash()}+{exercises.facts_hash()}"
    return f"{__version__}+{hashlib.sha256(both.encode()).hexdigest()[:12]}"
