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
import shlex
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
    hidden = sorted({p for p in needed if any(p.is_relative_to(f) for f in closed)},
                    key=lambda p: len(p.parts))
    return ["unshare", "--mount", "--propagation", "private", "sh", "-euc",
            _reach(sorted(closed), hidden), "reach", *drop, *argv]


def _reach(closed: list[Path], hidden: list[Path]) -> str:
    """The script that covers each ``closed`` folder with an empty one and binds
    the ``hidden`` paths back, read-only, then runs its arguments. Mounts made
    one by one: bwrap's view of the whole root would remount every mount below
    it, a container's that ends meanwhile too, and fail with it."""
    q = shlex.quote
    stage = 'stage=$(mktemp -d -p /tmp)'
    keep = [f'mkdir "$stage/{i}" && mount --bind {q(str(p))} "$stage/{i}"'
            for i, p in enumerate(hidden)]
    cover = [f"mount -t tmpfs -o mode=0755 none {q(str(f))}" for f in closed]
    back = [f'mkdir -p {q(str(p))} && mount --move "$stage/{i}" {q(str(p))} && '
            f"mount -o remount,bind,ro {q(str(p))}" for i, p in enumerate(hidden)]
    clean = ['rmdir "$stage"/* "$stage"', 'exec "$@"']
    return "\n".join([stage, *keep, *cover, *back, *clean])


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
