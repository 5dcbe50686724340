"""An agent's time, read from outside it: its control group, or ``/proc`` where
no group can be made.

A group (``grader.sandbox.cgroups``) counts the CPU of every process and thread
the agent ever ran, those reaped by a SIGCHLD set to ignored too; it tells how
long the agent waited for a CPU the machine gave to others (cgroup v2's
pressure); and it is frozen while it is not the agent's turn. Without one the
clock is the process tree's in ``/proc`` (the living processes' time plus what
their reaped children used), which misses auto-reaped children, knows nothing
of waiting, and freezes nothing: said once, loudly.
"""

import contextlib
import errno
import functools
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Protocol

from grader.sandbox import cgroups

log = logging.getLogger("grader.match")
TICK = os.sysconf("SC_CLK_TCK")


class Clock(Protocol):
    def read(self) -> tuple[float, float | None]:
        """Seconds of CPU the agent's processes have used, and seconds they waited for
        a CPU busy with others (None: not known)."""

    def freeze(self) -> None: ...

    def thaw(self) -> None: ...

    def kill(self) -> None: ...

    def close(self) -> None: ...


class GroupClock:
    """The clock of an agent whose processes are all in ``group``. A container
    engine removes its group once the container's processes have ended: its
    last readings stand, and there is nothing left to freeze or kill."""

    def __init__(self, group: cgroups.Group) -> None:
        self.group = group
        self.last: tuple[float, float | None] = (0.0, None)

    def read(self) -> tuple[float, float | None]:
        with _unless_gone():
            self.last = (self.group.cpu_seconds(), self.group.waited_seconds())
        return self.last

    def freeze(self) -> None:
        with _unless_gone():
            self.group.freeze()

    def thaw(self) -> None:
        with _unless_gone():
            self.group.thaw()

    def kill(self) -> None:
        with _unless_gone():
            self.group.kill()

    def close(self) -> None:
        with _unless_gone():
            self.group.remove()


@contextlib.contextmanager
def _unless_gone() -> Iterator[None]:
    """Nothing where the group's folder is gone, or going (its container ended: a
    file of a group being removed answers ENODEV)."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENODEV):
            raise


class TreeClock:
    """The clock of the process tree under ``pid``, from ``/proc``: nothing to freeze."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def read(self) -> tuple[float, float | None]:
        return tree_cpu(self.pid), None

    def freeze(self) -> None:
        pass

    def thaw(self) -> None:
        pass

    def kill(self) -> None:
        pass

    def close(self) -> None:
        pass


def group() -> cgroups.Group | None:
    """A new group for an agent's process; None (said once) where none can be made."""
    why = cgroups.available()
    if why is None:
        return cgroups.Group()
    without_groups(why)
    return None


def sweep() -> None:
    """Kill and remove the groups left by a match, grade or league that was killed
    (its agents' processes, frozen or not, die with them): at each one's start."""
    if cgroups.available() is None:
        swept = cgroups.sweep()
        if swept:
            log.info("removed %d control groups left by a run that was killed", swept)


@functools.cache
def watch() -> None:
    """Start a process that outlives this one, to kill and remove this one's groups
    the moment it ends, however (SIGKILL too): frozen players, which no
    parent-death signal reaches across the sandbox's change of uid, die then.
    Once a process."""
    if cgroups.available() is not None:
        return
    read, write = os.pipe()  # this process alone holds ``write``: its end is the EOF
    subprocess.Popen([sys.executable, "-m", "grader.match.clock", str(os.getpid())], stdin=read,
                     stdout=subprocess.DEVNULL, start_new_session=True)
    os.close(read)
    _watched.append(write)


_watched: list[int] = []  # kept open until this process ends


@functools.cache
def without_groups(why: str) -> None:
    """The one notice that agents are timed without control groups, and what it costs."""
    log.warning("agents are timed from /proc, not by control groups (%s): CPU used in "
                "children reaped by an ignored SIGCHLD is not seen, an agent is not frozen "
                "between its moves, and the wait for a busy CPU counts as its own time", why)


def tree_cpu(pid: int) -> float:
    """Seconds of CPU used by ``pid`` and its descendants, those reaped by a wait included."""
    total = 0
    for task in cgroups.tree(pid):
        try:
            with open(f"/proc/{task}/stat", "rb") as handle:
                text = handle.read().decode()
        except OSError:  # ended meanwhile
            continue
        # utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the command's
        # name (which may hold spaces and parentheses)
        total += sum(int(value) for value in text[text.rindex(")") + 2:].split()[11:15])
    return total / TICK


if __name__ == "__main__":  # ``watch``'s process: it waits for its owner's end
    sys.stdin.buffer.read()
    cgroups.sweep(owner=int(sys.argv[1]))
