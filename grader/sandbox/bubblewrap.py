"""The local sandbox's boundary: bubblewrap (``bwrap``), where it is installed.

Two views, one inside the other. The supervisor runs in the outer one: the
system's programs and libraries, the interpreter and its packages and the
harness, all read-only, and the job folder, the only writable place. The
student's workers run in an inner one, forked there by the run's zygote,
which the supervisor starts as the view's first process (``zygote``): the
interpreter, the zygote's and the worker's own modules (their closure,
computed from their imports at every run), the submission and the modules
the course provides, read-only, and a small private ``/tmp``; not the
suites, the reference search, the mistake models, nor the job folder. At
each worker's end the zygote kills every other process of the view.

The settings are isolate's and nsjail's, for their reasons: new user, PID,
network, IPC and UTS namespaces (no process of the machine to see, signal or
trace, no network but an unconnected loopback, no shared memory or host
name of the machine's), ``--die-with-parent`` and a PID namespace whose
first process takes every other with it (nothing outlives a run),
``--new-session`` (no TIOCSTI into a terminal), all capabilities dropped and
an unprivileged uid: as root, a uid of the run's own outside the namespace
too (a slot's, ``slots``), so that the student's code is never root and no
two runs at once share a uid or a process count. The rlimits the harness
sets are kept. Docker adds a memory cgroup, a fresh image file system and
seccomp; this has none of them.
"""

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from importlib import util
from pathlib import Path

from grader.contracts import places
from grader.harness.runtime import closure
from grader.sandbox import slots

INSIDE_UID = "1000"  # the uid an ordinary user's sandbox sees itself run as
TMP_BYTES = 16 << 20  # the worker's private /tmp
NAMESPACES = [
    "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    "--die-with-parent", "--new-session", "--hostname", "sandbox",
    "--dev", "/dev", "--remount-ro", "/dev",
]
# Without root: in a user namespace of its own, as an unprivileged uid there.
UNPRIVILEGED = ["--unshare-user", "--uid", INSIDE_UID, "--gid", INSIDE_UID, "--cap-drop", "ALL"]
# The worker's, inside the supervisor's view: the /proc of its own PID
# namespace, and no user namespace of its own to make.
WORKER = [*UNPRIVILEGED, *NAMESPACES, "--proc", "/proc", "--disable-userns"]
# The system's programs and libraries: where the interpreter's own libraries
# (libc, libpython) are found. Each is bound, or made the symlink it is here.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
FILES = ("/etc/ld.so.cache",)  # the dynamic linker's index of libraries


@functools.cache
def command() -> str | None:
    """bwrap's path, where it is installed and can make both views here."""
    found = shutil.which("bwrap")
    if found is None:
        return None
    with slots.held_uid() as uid:
        done = subprocess.run(_probe(found, uid), capture_output=True, check=False, timeout=30)
    return found if done.returncode == 0 else None


def _probe(bwrap: str, uid: int | None) -> list[str]:
    """The command that makes both views as a run does, with the system's folders
    only. Never the machine's whole root: binding it binds every mount below it
    too, and one that ends meanwhile (a container's file system) fails the bind."""
    folders = [bwrap, *_drop(uid)[:1]]
    view = ["--tmpfs", "/tmp", *_folders_to([*folders, *FILES]), *_binds(folders)]
    worker = [bwrap, *_binds([]), *WORKER, "true"]
    return _layers(bwrap, view, "/", uid, worker)


def outside_slot() -> slots.Slot | None:
    """The slot whose uid a run's sandbox runs as, held until its release, as
    root; else None (it runs as ourselves)."""
    return slots.take() if os.geteuid() == 0 else None


def _layers(bwrap: str, view: list[str], cwd: str, uid: int | None, argv: Sequence[str]
            ) -> list[str]:
    """The command that runs ``argv`` in the supervisor's ``view`` (bwrap's binds).

    As root (``uid`` given), two layers: a user namespace made by root would
    map the sandbox's uid to root's own outside it, so root's bwrap only
    makes the view and setpriv (``_drop``) takes every privilege away; the
    same view is then made again, unprivileged, as for an ordinary user. Its
    /proc is the machine's: the one root's bwrap mounts has folders mounted
    over it, below which no unprivileged bwrap may mount one of its own.
    """
    unprivileged = [bwrap, *view, *UNPRIVILEGED, *NAMESPACES, "--proc", "/proc",
                    "--chdir", cwd, "--remount-ro", "/", "--", *argv]
    if uid is None:
        return unprivileged
    return [bwrap, *view, "--bind", "/proc", "/proc", "--dev", "/dev", "--die-with-parent",
            "--chdir", cwd, "--remount-ro", "/", "--", *_drop(uid), *unprivileged]


def _drop(uid: int | None) -> list[str]:
    """The command that runs the next one as ``uid``, with no group, no capability
    and no way to gain any (setuid programs); nothing when ``uid`` is None."""
    if uid is None:
        return []
    return [shutil.which("setpriv") or "setpriv", f"--reuid={uid}", f"--regid={uid}",
            "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]


def _interpreter_folders() -> list[str]:
    return [sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))]


def _within(path: str, folders: Iterable[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _binds(folders: Iterable[str]) -> list[str]:
    """bwrap's options that bind the system's folders and ``folders`` read-only."""
    args: list[str] = []
    bound: list[str] = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
            bound.append(path)
    for path in folders:
        if not _within(path, bound):
            args += ["--ro-bind", path, path]
            bound.append(path)
    for path in FILES:
        args += ["--ro-bind-try", path, path]
    return args


def _folders_to(paths: Iterable[str]) -> list[str]:
    """bwrap's options that make the folders on the way to ``paths`` in the new
    root, open to all (as root, bwrap would make them root's alone)."""
    made = sorted({str(folder) for path in paths for folder in Path(path).parents
                   if str(folder) != "/" and not _within(str(folder), SYSTEM)},
                  key=lambda folder: folder.count("/"))
    return [arg for folder in made for arg in ("--perms", "0755", "--dir", folder)]


@functools.cache
def _worker_files(root: str = closure.WORKER) -> tuple[str, ...]:
    """bwrap's options that bind the worker's modules (or ``root``'s), and their
    bytecode where it was compiled (the worker runs with -B: it never compiles
    its own). Found once a process: reading the sources costs tens of ms."""
    args: list[str] = []
    for module in closure.worker_modules(root):
        spec = util.find_spec(module)
        if spec is not None and spec.origin:
            cached = util.cache_from_source(spec.origin)
            args += ["--ro-bind", spec.origin, spec.origin, "--ro-bind-try", cached, cached]
    return tuple(args)


def _bwrap() -> str:
    found = command()
    assert found is not None, "only where bwrap is usable"
    return found


def supervisor_command(work: Path, uid: int | None, argv: Sequence[str],
                       exercise: Path | None = None, game: Path | None = None,
                       clock: Path | None = None) -> list[str]:
    """The command that runs ``argv``, the supervisor, in its view of a run in
    ``work`` (the only writable place), as ``uid`` when given (root's runs).
    The view holds the package and the exercises' folder; of ``exercise``, an
    instructor's own (``--exercises DIR``), only what a judge reads of it (its
    suite and hints: ``places.SANDBOX_VIEW``), and ``game``, the folder of an instructor's game
    (``DIR/games/<name>``). Nothing of ``solutions/`` is ever bound. ``clock``, the
    folder of the run's control group, is bound read-only where it lies: its
    files time every limit."""
    folders = [*_interpreter_folders(), sys.prefix, str(places.PACKAGE), str(places.EXERCISES),
               _bwrap(), *_drop(uid)[:1]]
    if exercise is not None and not exercise.is_relative_to(places.EXERCISES):
        folders += [str(exercise / part) for part in places.SANDBOX_VIEW
                    if (exercise / part).exists()]
    if game is not None:
        folders.append(str(game))
    if clock is not None:
        folders.append(str(clock))
    # The private /tmp first: the job folder may lie under /tmp.
    view = ["--tmpfs", "/tmp", *_folders_to([*folders, *FILES, str(work)]), *_binds(folders),
            "--bind", str(work), str(work)]
    return _layers(_bwrap(), view, str(work), uid, argv)


def worker_prefix(submission: str, provided: str) -> list[str]:
    """The command that starts the run's zygote in the workers' view, inside the
    supervisor's (the interpreter and the zygote's arguments follow it)."""
    package = str(places.PACKAGE)
    # Nothing of the package but the worker's closure, even where the package
    # lies inside a folder bound for the interpreter (installed beside it).
    return [_bwrap(), "--size", str(TMP_BYTES), "--tmpfs", "/tmp",
            *_binds(_interpreter_folders()),
            "--tmpfs", package, *_worker_files(closure.ZYGOTE), "--remount-ro", package,
            "--ro-bind", submission, submission, "--ro-bind", provided, provided,
            "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", *WORKER,
            "--chdir", submission, "--remount-ro", "/", "--"]


def agent_command(folder: str, root: str, uid: int | None, argv: Sequence[str],
                  libraries: Sequence[str] = ()) -> list[str]:
    """The command that runs ``argv``, an agent's process in a match, in a view of
    its own: the interpreter, the modules ``root`` imports (its closure), the
    ``libraries`` offered to agents (folders), the agent's ``folder`` read-only
    and a small private ``/tmp``; as ``uid`` when given (root's runs)."""
    package = str(places.PACKAGE)
    folders = [*_interpreter_folders(), _bwrap(), *_drop(uid)[:1], *libraries]
    files = _worker_files(root)
    # The folders on the way to each file, its bytecode's too (as root, bwrap
    # would make them root's alone, closed to the view's unprivileged layer).
    bound = [path for option, path in zip(files, files[1:], strict=False)
             if option in ("--ro-bind", "--ro-bind-try")]
    view = ["--size", str(TMP_BYTES), "--tmpfs", "/tmp",
            *_folders_to([*folders, *FILES, package, folder]), *_binds(folders),
            "--tmpfs", package, *_folders_to(bound), *files, "--remount-ro", package,
            "--ro-bind", folder, folder, "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]
    return _layers(_bwrap(), view, folder, uid, argv)
