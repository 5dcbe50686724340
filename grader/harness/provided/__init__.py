"""Modules the course gives students, importable by the student's code.

``gamestate`` is the trusted game (``grader/harness/isolation.py``, which
imports nothing of the grader's); ``minimax_helpers`` is in this folder.
Which ones an exercise provides is in its ``exercise.toml``.
"""

import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = {
    "gamestate": HERE.parent / "isolation.py",
    "minimax_helpers": HERE / "minimax_helpers.py",
}


def provide(names, folder):
    """Copy the provided modules ``names`` into ``folder``, under their lesson names."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(SOURCES[name], folder / f"{name}.py")
        (folder / f"{name}.py").chmod(0o644)
