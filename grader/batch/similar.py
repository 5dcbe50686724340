"""Similar submissions in a batch: each student's files against every other's
(``grader.similarity``), listed in the summary, each pair on a page of its own
(``similar/<rank>.html``) with the shared passages marked."""

from collections.abc import Mapping
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from grader import intake
from grader.exercises import Exercise
from grader.files import write_atomic

FOLDER = "similar"


def available() -> bool:
    """Whether copydetect is installed (the ``service`` extra brings it)."""
    return find_spec("copydetect") is not None


Files = dict[str, str]  # a student's files: name -> text


def texts(submission: intake.Submission) -> Files:
    return {name: data.decode("utf-8", "replace") for name, data in submission.files.items()}


def compared(exercise: Exercise, files: Mapping[str, Files], out: Path,
             exclude: Path | None = None) -> list[dict[str, Any]]:
    """The similar pairs, as the summary lists them; each pair's page written. The
    starter's code, and that of the Python files under ``exclude`` (the solutions
    the instructor published), is no evidence."""
    # Here, not at the top: a batch without copydetect still grades (see ``available``).
    from grader.batch.page import pair_page
    from grader.similarity import folder_code, joined, similar

    known = folder_code(exercise.starter) + (folder_code(exclude) if exclude else [])
    found = similar({student: joined(mine) for student, mine in files.items()}, known=known)
    for stale in (out / FOLDER).glob("*.html"):  # an earlier run's pairs
        stale.unlink()
    entries = []
    for rank, pair in enumerate(found, start=1):
        page = f"{FOLDER}/{rank}.html"
        (out / FOLDER).mkdir(exist_ok=True)
        write_atomic(out / page, pair_page(exercise.id, pair))
        entries.append({"students": [pair.left, pair.right],
                        "shares": [round(pair.left_share, 4), round(pair.right_share, 4)],
                        "page": page})
    return entries
