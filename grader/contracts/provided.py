"""The modules the course gives students, which the student's code imports.

A game is handed out by its name (``nim``, ``kayles``): the ``rules.py`` of
its folder, a trusted game that imports nothing, so runs as a file of its
own; a built-in game's folder is in ``grader/games``, an instructor's beside
their exercises (``DIR/games/<name>/``). ``gamestate`` is isolation's rules
under the lesson's name, and ``minimax_helpers`` is package data. Which ones
an exercise provides is in its ``exercise.toml``.
Both sides hand them out: the host to the student (``stub``) and to the local
sandbox, the launcher inside the image.
"""

import shutil
from collections.abc import Mapping
from pathlib import Path

from grader.contracts import places

# The built-in games, and where the grading image holds an instructor's: beside them.
GAMES = places.PACKAGE / "games"
RULES = "rules.py"  # a game's rules, in its folder
# What is handed out under another name than its game's.
SOURCES = {
    "gamestate": GAMES / "isolation" / RULES,
    "minimax_helpers": places.PROVIDED / "minimax_helpers.py",
}


def source(name: str, games: Mapping[str, Path] | None = None) -> Path:
    """The file handed out as ``name``.py: one of ``SOURCES``, or the rules of
    the game ``name``: an instructor's, found in ``games`` (the folders of their
    games by name: the host's ``grader.games.added()``), else the package's
    (where the grading image holds an instructor's too). LookupError where
    there is no such file."""
    if name in SOURCES:
        return SOURCES[name]
    rules = (games or {}).get(name, GAMES / name) / RULES
    if not (name.isidentifier() and rules.is_file()):
        raise LookupError(f"no module {name!r} to provide: the course's modules are "
                          f"{', '.join(SOURCES)}, and the games go by their names")
    return rules


def provide(names: list[str] | tuple[str, ...], folder: str | Path,
            games: Mapping[str, Path] | None = None) -> None:
    """Copy the provided modules ``names`` into ``folder``, under their lesson
    names (``games``: as ``source`` takes it)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(source(name, games), folder / f"{name}.py")
        (folder / f"{name}.py").chmod(0o644)
