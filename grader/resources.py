"""Where the grader's own files lie: package data, found with importlib.resources.

The exercises (their settings, starters, READMEs and suites), the grading
image's Dockerfile and scripts and the Gradescope package's scripts ship
inside the ``grader`` package, so that an installed wheel grades as a source
checkout does. The reference solutions and the test corpus do not: they stay
in the checkout, for ``check-solutions`` (see ``grader.solutions``).
"""

from importlib import resources
from pathlib import Path

PACKAGE = "grader"


def package() -> Path:
    """The folder of the installed ``grader`` package."""
    folder = resources.files(PACKAGE)
    if not isinstance(folder, Path):
        # A zip import: the sandboxes run the harness's files by path.
        raise RuntimeError(f"minimax-grader must be installed as files, not run from {folder}")
    return folder


def data(*parts: str) -> Path:
    """A file or folder of the package's data: ``data("exercises", "helpers")``."""
    return package().joinpath("data", *parts)
