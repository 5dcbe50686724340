"""The Gradescope package: the autograder.zip an instructor uploads for one exercise.

Gradescope unpacks it in /autograder/source. It holds:

- ``setup.sh``, run once, as root, when Gradescope builds the autograder's
  image: a virtual environment of a Python 3.11 or newer with the packages,
  and the grader installed in /opt/minimax-grader by ``install-harness``,
  with the two users and the permissions of the grading image;
- ``run_autograder``, run as root for each submission: ``grader.gradescope.autograder``
  grades /autograder/submission in the launcher sandbox (the student's code
  as the ``student`` user, who can't read the suite) and always writes
  /autograder/results/results.json;
- ``grader/``: the harness and the host-side modules that run imports, and
  ``exercises/<id>/``: the exercise's ``exercise.toml`` and suite;
- ``requirements.txt`` and ``wheelhouse/``: pytest, pytest-timeout, the host
  side's packages and pip, as wheels for this machine's Python and platform,
  so that setup.sh needs no network where they fit (else it uses PyPI).

Never the reference solutions, the grader's tests, nor the other exercises.
"""

import io
import re
import stat
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from importlib import metadata
from pathlib import Path

from grader import files, image, installs
from grader.contracts import places
from grader.exercises import Exercise

SCRIPTS = places.GRADESCOPE_SCRIPTS
# The host side's modules that grader.gradescope.autograder imports (tests check the list).
HOST = ("grader/__init__.py", "grader/files.py", "grader/exercises.py", "grader/grading.py",
        "grader/intake.py", "grader/layouts.py", "grader/report.py", "grader/render.py",
        "grader/errors.py",
        "grader/gradescope/__init__.py", "grader/gradescope/autograder.py",
        "grader/sandbox/__init__.py", "grader/sandbox/interface.py", "grader/sandbox/outcome.py",
        "grader/sandbox/pipes.py", "grader/sandbox/staging.py", "grader/sandbox/timing.py",
        "grader/sandbox/local.py",
        "grader/sandbox/bubblewrap.py", "grader/sandbox/machine.py", "grader/sandbox/cgroups.py",
        "grader/sandbox/judges.py", "grader/sandbox/slots.py", "grader/sandbox/supervised.py",
        "grader/schema/__init__.py", "grader/schema/report.schema.json")
HOST_ONLY = {"docker"}  # the Docker sandbox's client: the package starts no container
EXECUTABLE, PLAIN = 0o755, 0o644
STAMP = (1980, 1, 1, 0, 0, 0)  # the same zip from the same files


def _project(requirement: str) -> str:
    """The project a requirement names, in lower case: ``jsonschema>=4.17`` -> ``jsonschema``."""
    name = re.match(r"[\w.-]+", requirement)
    assert name is not None  # a requirement starts with its project's name (PEP 508)
    return name.group().lower()


def requirements() -> list[str]:
    """The grader's own requirements, but those of the Docker sandbox and of
    the extras (``test``: the grader's own test suite)."""
    required = metadata.requires("minimax-grader")
    assert required is not None  # the grader's metadata lists its dependencies
    return [r for r in required if _project(r) not in HOST_ONLY and "extra ==" not in r]


def _sources(exercise: Exercise) -> list[tuple[str, Path]]:
    """(name in the zip, path) of the grader's files and the exercise's suite."""
    files = [(places.layout_name(p), p) for p in installs.harness_files()]
    files += [(name, places.PACKAGE / name.removeprefix("grader/")) for name in HOST]
    files += [(f"exercises/{exercise.id}/{p.relative_to(exercise.folder).as_posix()}", p)
              for p in installs.suite_files(exercise.folder)]
    return sorted(set(files))


def _entries(exercise: Exercise, wheels: Path) -> Iterator[tuple[str, bytes, int]]:
    """(name in the zip, bytes, mode) of everything the package holds."""
    run = (SCRIPTS / "run_autograder").read_text().replace("@EXERCISE@", exercise.id)
    yield "setup.sh", (SCRIPTS / "setup.sh").read_bytes(), EXECUTABLE
    yield "run_autograder", run.encode(), EXECUTABLE
    yield installs.INSTALL, (places.IMAGE_SCRIPTS / installs.INSTALL).read_bytes(), EXECUTABLE
    yield "requirements.txt", "".join(f"{r}\n" for r in requirements()).encode(), PLAIN
    for wheel in sorted(wheels.glob("*.whl")):
        yield f"wheelhouse/{wheel.name}", wheel.read_bytes(), PLAIN
    for name, path in _sources(exercise):
        yield name, path.read_bytes(), PLAIN


def _write_zip(entries: Iterable[tuple[str, bytes, int]], target: files.Output) -> None:
    """Write the zip to ``target`` as ``files.Output`` writes: a regular file
    whole or not at all, a device or a FIFO straight through. Made in memory
    first, so that every kind of target gets the same bytes (a zip streamed to
    a pipe would differ)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in entries:
            info = zipfile.ZipInfo(name, date_time=STAMP)
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    target.write(buffer.getvalue(), mode=PLAIN)


def build(exercise: Exercise, output: "files.Output | Path | str") -> list[str]:
    """Write the Gradescope package of ``exercise`` to ``output`` (a target the
    caller has checked with ``files.output``, or a path checked here); the names
    it holds.

    The wheels are downloaded with pip, from PyPI or the index pip is set to use.
    """
    if not isinstance(output, files.Output):
        output = files.output(str(output), example="autograder.zip")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-wheels-") as wheels:
        image.wheelhouse(Path(wheels), ["pip", *requirements()])
        entries = list(_entries(exercise, Path(wheels)))
    _write_zip(entries, output)
    return [name for name, _, _ in entries]
