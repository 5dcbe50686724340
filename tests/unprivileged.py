"""Grading as an ordinary user, from tests that run as root.

The grader runs in a child process as ``UID`` (no groups, no capabilities,
set by setpriv) and prints its report as JSON. Where the interpreter or the
checkout lies under a folder others can't enter (a root's home holding
pyenv, say), the child gets a mount namespace of its own in which that
folder is an empty one with only those paths bound back: the grader's files
become reachable, and nothing else of that folder.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

UID = 65534  # nobody
ROOT = Path(__file__).resolve().parent.parent

GRADE = """
import json, sys
from grader import exercises, grading
from grader.sandbox.local import LocalSandbox
exercise_id, path, limits, wrapped = sys.argv[1:]
exercise = exercises.load(exercise_id)
limits = exercise.limits.override(**json.loads(limits))
sandbox = LocalSandbox(bubblewrap=wrapped == "bwrap")
print(json.dumps(grading.grade(exercise, path, sandbox, limits)))
"""


def _closed(path: Path) -> Path | None:
    """The highest folder on the way to ``path`` that others may not enter."""
    for folder in reversed(path.parents):
        if not folder.stat().st_mode & 0o001:
            return folder
    return None


def command(argv: list[str], uid: int = UID) -> list[str]:
    """``argv`` as ``uid``, with the grader's own files reachable."""
    needed = [Path(p) for p in (sys.base_prefix, sys.prefix, ROOT)]
    closed = {folder for path in needed if (folder := _closed(path))}
    drop = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
            "--inh-caps=-all", "--bounding-set=-all", "--"]
    if not closed:
        return [*drop, *argv]
    view = [arg for folder in sorted(closed) for arg in ("--perms", "0755", "--tmpfs", folder)]
    for path in needed:
        if top := next((f for f in closed if path.is_relative_to(f)), None):
            on_the_way = [f for f in reversed(path.parents) if f.is_relative_to(top) and f != top]
            view += [arg for f in on_the_way for arg in ("--perms", "0755", "--dir", f)]
            view += ["--ro-bind", path, path]
    return [shutil.which("bwrap") or "bwrap", "--dev-bind", "/", "/", *map(str, view), "--",
            *drop, *argv]


@contextmanager
def own_folder() -> Iterator[Path]:
    """A folder of ``UID``'s own in the temp folder, removed afterwards (pytest's
    tmp_path is under a folder that only root may enter)."""
    parent = Path(tempfile.mkdtemp(prefix="as-user-"))
    try:
        parent.chmod(0o755)
        yield folder(parent, "own")
    finally:
        shutil.rmtree(parent)


def folder(parent: Path, name: str, uid: int = UID) -> Path:
    """A new folder ``name`` in ``parent`` (root's own, say) owned by ``uid``."""
    made = parent / name
    made.mkdir(mode=0o700)
    os.chown(made, uid, uid)
    return made


def grade(exercise: str, path: Path, temp: Path, limits: dict | None = None,
          bubblewrap: bool = True, timeout: float = 300, home: Path | None = None) -> dict:
    """The report of grading ``path`` as ``UID``, with ``temp`` its temp folder
    (and its home folder, unless ``home`` is given)."""
    env = {**os.environ, "TMPDIR": str(temp), "HOME": str(home or temp)}
    done = subprocess.run(
        command([sys.executable, "-I", "-c", GRADE, exercise, str(path),
                 json.dumps(limits or {}), "bwrap" if bubblewrap else "bare"]),
        capture_output=True, text=True, env=env, cwd=temp, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)
