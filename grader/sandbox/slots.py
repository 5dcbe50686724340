"""Uids of runs' own, as slots: a uid is a run's while it holds its slot's lock.

Box ``b`` of ``grader.contracts.run.SLOT_UIDS`` gives the uid ``first + b``
(as isolate's boxes do), and it is a run's while that run's host holds an
exclusive ``flock`` on the file named ``b`` in the slots' folder. The lock is
the kernel's: every process on this kernel sees it (other grading hosts,
Celery's workers, threads of one process: each open of the file is a lock of
its own), and it ends with the holder's file, at ``release`` or at the
holder's death. A host holds its slot until nothing of the run is left (its
judge ended, its container removed). A host killed outright frees its locks
at once while a container of its may live until it is swept, so a box whose
uid still runs a process is passed over too.

The folder is root's own, ``/run/minimax-grader/slots``, where the grader runs
as root; otherwise the user's own folder in the temporary folder (only
Docker's runs take slots then: two users sharing one engine each have theirs,
and only the check of live processes keeps them apart).
"""

import contextlib
import fcntl
import os
import secrets
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from grader.contracts.run import SLOT_UIDS
from grader.sandbox.outcome import SandboxUnavailable

ROOT_FOLDER = Path("/run/minimax-grader/slots")


class NoSlot(SandboxUnavailable):
    """Every slot is held: the run waits for another host's, as a grader-side error."""


def folder() -> Path:
    """The slots' folder, made where it is missing, and refused where another user
    owns it or others may write in it (they could hold or swap its files)."""
    where = ROOT_FOLDER if os.geteuid() == 0 else \
        Path(tempfile.gettempdir()) / f"minimax-grader-slots-{os.geteuid()}"
    where.mkdir(mode=0o700, parents=True, exist_ok=True)
    found = os.lstat(where)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid() or \
            found.st_mode & 0o022:
        raise SandboxUnavailable(f"{where} is not the grader's own folder: no uid can be held")
    return where


class Slot:
    """One held box: its ``uid`` is the run's until ``release``."""

    def __init__(self, box: int, fd: int, uids: range) -> None:
        self.box, self.fd, self.uid = box, fd, uids[box]
        _HELD.add(self)

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # the lock ends with the file (every copy of it)
            self.fd = -1
        _HELD.discard(self)

    def __enter__(self) -> "Slot":
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


def take(where: Path | None = None, uids: range = SLOT_UIDS) -> Slot:
    """A free slot of ``uids``: its lock held, no process running as its uid.
    Boxes are tried from a random one on, so that hosts seldom race for one."""
    where = where or folder()
    busy = _running_uids()
    start = secrets.randbelow(len(uids))
    for step in range(len(uids)):
        box = (start + step) % len(uids)
        if uids[box] in busy:
            continue
        fd = os.open(where / str(box), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return Slot(box, fd, uids)
    raise NoSlot(f"all {len(uids)} uids of runs are in use on this machine")


@contextlib.contextmanager
def held_uid(as_root_only: bool = True) -> Iterator[int | None]:
    """A slot's uid for a short run (a probe), released after; None where the
    grader is not root and ``as_root_only`` (it runs as itself then)."""
    if as_root_only and os.geteuid() != 0:
        yield None
        return
    with take() as slot:
        yield slot.uid


_HELD: set[Slot] = set()  # this process's


def _forked() -> None:
    """A forked process holds none of its parent's slots: its copies of their
    files are closed (the parent's lock stays: only the last copy ends it)."""
    for slot in list(_HELD):
        os.close(slot.fd)
        slot.fd = -1
    _HELD.clear()


os.register_at_fork(after_in_child=_forked)


def _running_uids() -> set[int]:
    """The uids that own a process on this machine now (as ``/proc`` shows them)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                found.add(os.stat(f"/proc/{entry}").st_uid)
    return found
