"""Where things lie: the one record, read by the host and by the harness alike.

A source checkout and the grading image hold the project's top-level folders
beside the ``grader`` package (``exercises/``, ``Dockerfile``); an installed
wheel holds the same inside the package, under ``grader/shipped/`` (setup.py's
build puts them there). ``solutions/`` (the reference solutions and the corpus
of known submissions) lies in a source checkout only: nothing ships, binds or
hands it out, so no list of folders to hide is needed anywhere.
"""

import os
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # the ``grader`` package, as files
CHECKOUT = PACKAGE.parent  # a source checkout's top level (the image's /opt/minimax-grader)
SHIPPED = "shipped"  # the wheel's copy of the top-level folders, inside the package
TOP = PACKAGE / SHIPPED if (PACKAGE / SHIPPED).is_dir() else CHECKOUT

EXERCISES = TOP / "exercises"  # what students and the sandbox may see, one folder each
DOCKERFILE = TOP / "Dockerfile"  # the grading image's
SOLUTIONS = CHECKOUT / "solutions"  # staff and CI only: <id>/solution/, <id>/corpus/<case>/
# What of an exercise's folder a judge reads (its view binds these alone):
# its suite, and the hint ids it alone names.
SANDBOX_VIEW = ("suite", "hints.toml")

DATA = PACKAGE / "data"  # the package's own data
IMAGE_SCRIPTS = DATA / "image"  # install-harness, make-base-image
GRADESCOPE_SCRIPTS = DATA / "gradescope"  # setup.sh, run_autograder
PROVIDED = DATA / "provided"  # the course's modules that are not a game's rules

IMAGE_HOME = "/opt/minimax-grader"  # the image's copy of the top level, laid as a checkout
# The folder under which a host makes what the Docker engine binds into its
# containers (a launcher socket's folder, an agent's files). The engine sees the machine's
# folders only, never a service's private /tmp: docs/deploy/'s units set it to
# their RuntimeDirectory. Unset, the temporary folder.
ENGINE_DIR = "MINIMAX_GRADER_ENGINE_DIR"


def engine_folder() -> Path:
    """Where folders bound into containers are made (see ``ENGINE_DIR``)."""
    return Path(os.environ.get(ENGINE_DIR) or tempfile.gettempdir())


def layout_name(path: Path) -> str:
    """``path``'s name in the top-level layout, as the image and Gradescope's
    package lay it out: ``grader/contracts/protocol.py``, ``exercises/helpers/suite/...``."""
    if path.is_relative_to(EXERCISES):
        return f"exercises/{path.relative_to(EXERCISES).as_posix()}"
    return f"grader/{path.relative_to(PACKAGE).as_posix()}"
