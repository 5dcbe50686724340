"""What of the grader each place that grades holds, as files of the package.

- The judge on the host (Docker's and bubblewrap's) runs the whole harness
  (``harness_files``: the harness, the contracts, the games and the provided
  modules) and every exercise's suite: ``judge_files``, whose hash is part of
  the grader's version (``judge_hash``).
- The grading image runs the launcher and the student's workers only
  (``launcher_files``): what the launcher imports, the worker's modules among
  them; the modules it hands out (the course's and every game's rules); and
  ``closure.py``, which its install runs. No suite, no reference, no pytest.
- Gradescope's machine runs the supervisor beside the launcher: the whole
  harness and its exercise's ``suite_files`` (``grader.gradescope.package``).

The image's build and Gradescope's setup both install them with
``grader/data/image/install-harness`` (``INSTALL``): the users, the
permissions, the bytecode.
"""

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

from grader import exercises, games
from grader.contracts import places, provided
from grader.harness.runtime import closure

PACKAGE = places.PACKAGE
INSTALL = "install-harness"  # the script that installs them, in places.IMAGE_SCRIPTS
HARNESS = ("harness", "contracts", "games")  # the packages of the harness


def _sources(paths: Iterable[Path]) -> list[Path]:
    return [p for p in paths if "__pycache__" not in p.parts]


def harness_files(package: Path = PACKAGE) -> list[Path]:
    """The whole harness, as the judge runs it: paths in the installed package
    (its modules, the hint ids it checks against, the provided modules)."""
    found = [package / "__init__.py"]
    for folder in HARNESS:
        found += sorted(p for p in (package / folder).rglob("*") if p.suffix in (".py", ".toml"))
    found += sorted((package / places.PROVIDED.relative_to(PACKAGE)).glob("*.py"))
    return _sources(found)


def launcher_files(package: Path = PACKAGE) -> list[Path]:
    """What the grading image holds of ``package``: the launcher and every module
    it imports (``closure``), ``closure.py`` (install-harness runs it to find
    what the student's user may read), and what the launcher hands out: the
    provided modules and every game's rules (``contracts.provided``)."""
    own = [*closure.files(closure.LAUNCHER), Path(closure.__file__)]
    found = {package / path.relative_to(PACKAGE) for path in own}
    found |= set((package / places.PROVIDED.relative_to(PACKAGE)).glob("*.py"))
    found |= set((package / provided.GAMES.relative_to(PACKAGE)).glob(f"*/{provided.RULES}"))
    return sorted(found)


def suite_files(folder: Path) -> list[Path]:
    """An exercise's ``exercise.toml`` and suite: paths in the installed package."""
    return [folder / "exercise.toml", *sandbox_suite_files(folder)]


def sandbox_suite_files(folder: Path) -> list[Path]:
    """What of an exercise the judge reads (``places.SANDBOX_VIEW``): its suite,
    and the hint ids it alone names (its hints.toml, which the harness checks a
    test's mistakes against). The judge is told the tests' names and limits in
    its job, and the host applies points, titles and visibility."""
    suite, hints = (folder / part for part in places.SANDBOX_VIEW)
    return _sources(sorted(suite.rglob("*.py"))) + ([hints] if hints.is_file() else [])


def judge_files(package: Path = PACKAGE,
                root: Path = places.EXERCISES) -> list[tuple[str, Path]]:
    """(name in the top-level layout, path) of what the judge runs: the harness of
    ``package``, the suites of the exercises in ``root`` (the built-in ones) and
    of those added with --exercises, and an instructor's games beside the
    built-in ones. Never ``solutions/``."""
    found = [(f"grader/{p.relative_to(package).as_posix()}", p) for p in harness_files(package)]
    added = [folder for top in exercises.added() for folder in _exercises_in(top)]
    for folder in [*_exercises_in(root), *added]:
        found += [(f"exercises/{folder.name}/{p.relative_to(folder).as_posix()}", p)
                  for p in sandbox_suite_files(folder)]
    return found + added_games(lambda folder: _sources(sorted(folder.rglob("*.py"))))


def _exercises_in(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if (p / "exercise.toml").is_file())


def added_games(files: Callable[[Path], list[Path]]) -> list[tuple[str, Path]]:
    """(name where the package's games lie, path) of ``files(folder)`` of each of an
    instructor's games (``grader.games.added``)."""
    return [(f"grader/games/{name}/{p.relative_to(folder).as_posix()}", p)
            for name, folder in sorted(games.added().items()) for p in files(folder)]


def judge_hash(package: Path = PACKAGE, root: Path = places.EXERCISES) -> str:
    """A hash of ``judge_files``: what decides a verdict, beside the host's facts."""
    return digest(judge_files(package, root))


def digest(files: Iterable[tuple[str, Path]], *extra: str) -> str:
    """A short hash of files by name, and of ``extra`` strings."""
    made = hashlib.sha256()
    for name, path in files:
        made.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    for part in extra:
        made.update(part.encode() + b"\0")
    return made.hexdigest()[:16]
