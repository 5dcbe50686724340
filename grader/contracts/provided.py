"""The modules the course gives students, which the student's code imports.

``gamestate``, ``nim`` and ``kayles`` are trusted games themselves (``rules.py``
of their folders in ``grader/games`` import nothing, so they run
as files of their own); ``minimax_helpers`` is package data. Which ones an
exercise provides is in its ``exercise.toml``.
Both sides hand them out: the host to the student (``stub``) and to the local
sandbox, the launcher inside the image.
"""

import shutil
from pathlib import Path

from grader.contracts import places

SOURCES = {
    "gamestate": places.PACKAGE / "games" / "isolation" / "rules.py",
    "minimax_helpers": places.PROVIDED / "minimax_helpers.py",
    "nim": places.PACKAGE / "games" / "nim" / "rules.py",
    "kayles": places.PACKAGE / "games" / "kayles" / "rules.py",
}


def provide(names: list[str] | tuple[str, ...], folder: str | Path) -> None:
    """Copy the provided modules ``names`` into ``folder``, under their lesson names."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(SOURCES[name], folder / f"{name}.py")
        (folder / f"{name}.py").chmod(0o644)
