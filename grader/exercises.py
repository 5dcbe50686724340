"""The exercises: what a student submits, the tests with points, the limits.

Each exercise lives in ``exercises/<id>/`` with an ``exercise.toml``, the
starter files, a README for the student and the pytest suite.
"""

import dataclasses
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "exercises"
VISIBILITY = ("visible", "hidden", "after_due_date", "after_published")


class UnknownExercise(LookupError):
    def __init__(self, name, known):
        super().__init__(f"unknown exercise {name!r}; the exercises are: {', '.join(known)}")


class BadExercise(ValueError):
    """An exercise.toml that does not say what the grader needs."""


@dataclass(frozen=True)
class Limits:
    # For an exercise whose exercise.toml gives none: about the most generous of
    # the measured ones (see bench/time_limits.py), at the 60 s ceiling of a run.
    call_seconds: float = 10
    test_seconds: float = 10
    total_seconds: float = 60
    memory_mb: int = 512
    output_bytes: int = 16384
    processes: int = 64
    file_bytes: int = 16 << 20

    def facts(self):
        """The limits as the report states them."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k != "file_bytes"}

    def override(self, **changes):
        """These limits with the given ones replaced (None leaves one alone)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


@dataclass(frozen=True)
class TestSpec:
    name: str
    title: str
    points: float
    visibility: str = "visible"
    seconds: float | None = None


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    summary: str
    files: tuple
    tests: tuple
    limits: Limits
    folder: Path
    provides: tuple = ()  # modules the course gives students (harness/provided)

    @property
    def suite(self):
        return self.folder / "suite"

    @property
    def starter(self):
        return self.folder / "starter"

    @property
    def modules(self):
        return [Path(name).stem for name in self.files]

    @property
    def max_score(self):
        return sum(test.points for test in self.tests)


def known(root=ROOT):
    if not root.is_dir():
        raise BadExercise(f"no exercises at {root}: install minimax-grader from its source "
                          "checkout (pip install -e .)")
    return sorted(p.name for p in root.iterdir() if (p / "exercise.toml").is_file())


def load(name, root=ROOT):
    if name not in known(root):
        raise UnknownExercise(name, known(root))
    folder = root / name
    with open(folder / "exercise.toml", "rb") as handle:
        data = tomllib.load(handle)
    try:
        tests = tuple(TestSpec(**test) for test in data["tests"])
        exercise = Exercise(
            id=name, title=data["title"], summary=data.get("summary", ""),
            files=tuple(data["files"]), tests=tests, limits=Limits(**data.get("limits", {})),
            folder=folder, provides=tuple(data.get("provides", ())),
        )
    except (KeyError, TypeError) as exc:
        raise BadExercise(f"{folder / 'exercise.toml'}: {exc}") from None
    for test in tests:
        if test.visibility not in VISIBILITY:
            raise BadExercise(f"{name}: test {test.name}: visibility {test.visibility!r}")
    return exercise


def load_all(root=ROOT):
    return [load(name, root) for name in known(root)]
