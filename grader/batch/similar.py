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


def compared(exercise: Exercise, files: Mapping[str, Files], out: Path) -> list[dict[str, Any]]:
    """The similar pairs, as the summary lists them; each pair's page written."""
    # Here, not at the top: a batch without copydetect still grades (see ``available``).
    from grader.batch.page import pair_page
    from grader.similarity import joined, similar

    starter = joined({path.name: path.read_text(encoding="utf-8", errors="replace")
                      for path in sorted(exercise.starter.glob("*.py"))})
    found = similar({student: joined(mine) for student, mine in files.items()}, starter)
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
