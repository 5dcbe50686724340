"""A grading the test holds mid-run, across the sandbox's boundary.

The student's code reaches nothing of the test's (the local sandbox is a
bubblewrap view), but it sees its own submission folder, bound live from the
job's folder under the grading process's TMPDIR (in a warm judge's home
there). So the module waits, as it is imported, for a file ``go`` beside it,
and the test finds the gradings under way by their job folders and lets them
go by making that file.
"""

from collections.abc import Callable
from pathlib import Path

from tests.service.conftest import FULL_MARKS

WAITS = (b"import os as _os, time as _time\n"
         b"_here = _os.path.dirname(_os.path.abspath(__file__))\n"
         b"while not _os.path.exists(_os.path.join(_here, 'go')):\n"
         b"    _time.sleep(0.05)\n")


def held() -> bytes:
    """The full-marks solution, held as it is imported until it is let go."""
    return WAITS + FULL_MARKS.read_bytes()


def under_way(temp: Path) -> list[Path]:
    """The submission folders of the gradings under way below ``temp``: a run's own
    folder, or one in a warm judge's home (the local sandbox in bubblewrap)."""
    return sorted(temp.glob("minimax-grader-*/submission")) + sorted(
        temp.glob("minimax-grader-judge-*/run-*/submission"))


def let_go(temp: Path) -> None:
    """Let every grading under way below ``temp`` go on."""
    for folder in under_way(temp):
        (folder / "go").touch()


def letting_go(temp: Path, done: Callable[[], bool]) -> Callable[[], bool]:
    """``done``, asked each time after the gradings under way below ``temp`` are let go."""
    def check() -> bool:
        let_go(temp)
        return done()

    return check
