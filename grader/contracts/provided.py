"""The modules the course gives students, which the student's code imports.

``gamestate``, ``nim`` and ``kayles`` are trusted games themselves (``rules.py``
of their folders in ``grader/games`` import nothing, so they run
as files of their own); ``minimax_helpers`` is package data. An instructor's
game (``DIR/games/<name>/``, beside their exercises) is handed out by its
name too: its ``rules.py``, which imports nothing either. Which ones an
exercise provides is in its ``exercise.toml``.
Both sides hand them out: the host to the student (``stub``) and to the local
sandbox, the launcher inside the image.
"""

import shutil
from collections.abc import Mapping
from pathlib import Path

from grader.contracts import places

SOURCES = {
    "gamestate": places.PACKAGE / "games" / "isolation" / "rules.py",
    "minimax_helpers": places.PROVIDED / "minimax_helpers.py",
    "nim": places.PACKAGE / "games" / "nim" / "rules.py",
    "kayles": places.PACKAGE / "games" / "kayles" / "rules.py",
}
# Where the grading image holds an instructor's games: beside the built-in ones.
GAMES = places.PACKAGE / "games"
RULES = "rules.py"  # a game's rules, in its folder


def source(name: str, games: Mapping[str, Path] | None = None) -> Path:
    """The file handed out as ``name``.py: one of ``SOURCES``, or the rules of
    the instructor's game ``name``, found in ``games`` (the folders of their
    games by name: the host's ``grader.games.added()``) or, where that is not
    given, beside the package's games, as the grading image holds them.
    LookupError where there is no such file."""
    if name in SOURCES:
        return SOURCES[name]
    folder = GAMES / name if games is None else games.get(name)
    if folder is None or not (folder / RULES).is_file():
        raise LookupError(f"no module {name!r} to provide: the course's modules are "
                          f"{', '.join(SOURCES)}, and an instructor's games go by their names")
    return folder / RULES


def provide(names: list[str] | tuple[str, ...], folder: str | Path,
            games: Mapping[str, Path] | None = None) -> None:
    """Copy the provided modules ``names`` into ``folder``, under their lesson
    names (``games``: as ``source`` takes it)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(source(name, games), folder / f"{name}.py")
        (folder / f"{name}.py").chmod(0o644)
