"""Control groups (cgroup v2): the kernel's account of a run's whole process tree.

A run (a sandbox's supervisor and the student's workers, or an agent's
process) is put in a group of its own. The kernel then counts the CPU of
every thread and child in it, the reaped ones too (a child reaped by a
SIGCHLD set to ignored is not in any rusage, but it is in its group), and
how long its tasks waited for a CPU the machine gave to others (pressure
stall information); it freezes and kills the group as one.

Only cgroup v2 is used (``cpu.stat``, ``cpu.pressure``, ``cgroup.freeze``,
``cgroup.kill``), mounted at /sys/fs/cgroup or beside v1 at
/sys/fs/cgroup/unified, where a v1 container engine still runs. A host with
no v2 hierarchy that can be written (v1 alone, or an unprivileged user without
a delegated group) makes no group: its runs are timed by the wall clock, and
``available`` says why. Groups are made under this process's own group (a
service unit with ``Delegate=yes`` owns its subtree), named
``minimax-grader-<pid>-<n>``: those of a process that has ended are removed by
the next ``sweep``.
"""

import functools
import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path

MOUNTS = Path("/proc/self/mounts")
MEMBERSHIP = "/proc/{pid}/cgroup"  # a process's groups, one line a hierarchy
PREFIX = "minimax-grader-"
_numbers = itertools.count()
FREEZE_SECONDS = 5  # how long a freeze may take before the group is taken as stuck


class NoGroups(Exception):
    """No control group can be made here: why, for the one loud notice."""


class Stuck(Exception):
    """A group was not frozen (or thawed) within ``FREEZE_SECONDS``."""


def v2_mount(mounts: Path = MOUNTS) -> Path | None:
    """Where the cgroup v2 hierarchy is mounted (every run's group and every
    container's lie below it), by the mount table ``mounts``; None where it is not."""
    for line in mounts.read_text().splitlines():
        parts = line.split()
        if len(parts) > 2 and parts[2] == "cgroup2":
            return Path(parts[1].replace("\\040", " "))
    return None


def _own(pid: int | str = "self", membership: str = MEMBERSHIP) -> str:
    """The v2 group of process ``pid`` (this one by default), relative to the mount."""
    for line in Path(membership.format(pid=pid)).read_text().splitlines():
        number, _, path = line.split(":", 2)
        if number == "0":
            return path.lstrip("/")
    raise NoGroups(f"process {pid} is in no cgroup v2 group")


def _writable(folder: Path) -> bool:
    probe = folder / f"{PREFIX}probe-{os.getpid()}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


@functools.cache
def hierarchy(mounts: Path = MOUNTS, membership: str = MEMBERSHIP) -> Path:
    """The folder this process makes its groups in (below its own v2 group), by
    the mount table ``mounts`` and the membership file ``membership``; NoGroups,
    saying why, where there is none."""
    point = v2_mount(mounts)
    if point is None:
        raise NoGroups("no cgroup v2 hierarchy is mounted here (cgroup v1 alone is not used: "
                       "boot with systemd.unified_cgroup_hierarchy=1, or mount cgroup2)")
    base = point / _own(membership=membership)
    if not _writable(base):
        raise NoGroups(f"no control group can be made in {base}: grade as root, or in a "
                       "delegated group (a systemd unit's Delegate=yes)")
    return base


def available(mounts: Path = MOUNTS, membership: str = MEMBERSHIP) -> str | None:
    """None where groups can be made; else why not."""
    try:
        hierarchy(mounts, membership)
    except (NoGroups, OSError) as exc:
        return str(exc)
    return None


class Group:
    """One run's control group: made empty, then the run's first process is put in it."""

    def __init__(self, base: Path | None = None) -> None:
        self.folder = (base or hierarchy()) / f"{PREFIX}{os.getpid()}-{next(_numbers)}"
        self.folder.mkdir()
        self.owned = True  # made here: ``remove`` removes it

    @classmethod
    def adopt(cls, folder: Path, owned: bool = False) -> "Group":
        """A group made by another (a container engine's): read, frozen and killed
        here, removed by its maker (or here, where ``owned``: one of ours left behind)."""
        group = cls.__new__(cls)
        group.folder, group.owned = folder, owned
        return group

    @property
    def name(self) -> str:
        return self.folder.name

    def command(self, argv: list[str]) -> list[str]:
        """``argv``, run in the group: a shell puts itself in it, then becomes ``argv``
        (so that nothing of it runs outside the group, and no pid is raced)."""
        return ["sh", "-c", 'echo $$ > "$1"; shift; exec "$@"', "sh",
                str(self.folder / "cgroup.procs"), *argv]

    def add(self, pid: int) -> None:
        (self.folder / "cgroup.procs").write_text(f"{pid}\n")

    def take(self, pid: int) -> None:
        """Move ``pid`` and its descendants into the group, until no new child
        appears meanwhile (those it starts after are born in the group)."""
        moved: set[int] = set()
        while todo := set(tree(pid)) - moved:
            for task in todo:
                try:
                    self.add(task)
                except OSError:  # ended meanwhile
                    pass
            moved |= todo

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in (self.folder / "cgroup.procs").read_text().split()]
        except FileNotFoundError:
            return []

    def cpu_seconds(self) -> float:
        """The CPU time of every task that has been in the group, reaped ones too."""
        return _fields(self.folder / "cpu.stat")["usage_usec"] / 1e6

    def waited_seconds(self) -> float | None:
        """How long, in all, some task of the group waited for a CPU that was busy
        with others (pressure stall, "some"); None where the kernel keeps no
        pressure (built without it, or booted with psi=0)."""
        return waited(self.folder / "cpu.pressure")

    def freeze(self) -> None:
        """Stop every task of the group until ``thaw``; waits until they are stopped
        and their CPU is all counted (Stuck past ``FREEZE_SECONDS``)."""
        self._freezing(True)

    def thaw(self) -> None:
        self._freezing(False)

    def _freezing(self, frozen: bool) -> None:
        deadline = time.monotonic() + FREEZE_SECONDS
        (self.folder / "cgroup.freeze").write_text("1" if frozen else "0")
        while not (_fields(self.folder / "cgroup.events").get("frozen") == int(frozen)
                   and (not frozen or self._off_cpu())):
            if time.monotonic() > deadline:
                raise Stuck(f"its control group was not {'frozen' if frozen else 'thawed'} "
                            f"within {FREEZE_SECONDS} s")
            time.sleep(0.001)

    def _off_cpu(self) -> bool:
        """Whether every task of the group has left its CPU. The kernel tells "frozen"
        once the last task has entered the freezer, before it has switched away, and
        counts that last stretch only then: on a busy machine, a while after."""
        return all(_left_cpu(task) for pid in self.pids() for task in _tasks(pid))

    def kill(self) -> None:
        """SIGKILL every task of the group (thawed first: a frozen task can't die).
        ``cgroup.kill`` came with Linux 5.14; before it, each task is killed."""
        if (self.folder / "cgroup.kill").exists():
            (self.folder / "cgroup.kill").write_text("1")
        else:
            for pid in self.pids():
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
        self.thaw()

    def remove(self) -> None:
        """Kill what is left and remove the group's folder (once it is empty)."""
        self.kill()
        if not self.owned:
            return
        deadline = time.monotonic() + FREEZE_SECONDS
        while self.folder.exists():
            try:
                self.folder.rmdir()
            except FileNotFoundError:
                break
            except OSError:  # tasks still dying
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)


def of_container(pid: int, container_id: str) -> Group:
    """The group of a container whose first process is ``pid``: the engine's own v2
    group of it (a v2 engine's; a v1 engine's runtime makes one beside its v1
    groups too where v2 is mounted beside), else one made here with the
    container's processes moved into it (engines name their groups by the
    container: that is for those that do not)."""
    path = _own(pid)
    point = v2_mount()
    if container_id in path and point is not None:
        return Group.adopt(point / path)
    group = Group()
    group.take(pid)
    return group


def tree(pid: int) -> list[int]:
    """``pid`` and its living descendants."""
    found, todo = [], [pid]
    while todo:
        found.append(current := todo.pop())
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                todo += [int(child) for child in task.read_text().split()]
            except OSError:  # ended while being read
                pass
    return found


def _tasks(pid: int) -> list[Path]:
    """The /proc folders of the threads of process ``pid``; none once it has ended."""
    try:
        return list(Path(f"/proc/{pid}/task").iterdir())
    except (FileNotFoundError, ProcessLookupError):
        return []


def _left_cpu(task: Path) -> bool:
    """Whether a thread is off its CPU and off the run queue, or has ended: its
    ``wchan`` (where it sleeps) is "0" while it runs or waits to, for a dead one, and
    to a reader not allowed to trace it (whose freezes are then Stuck, loudly)."""
    try:
        state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        return state in ("Z", "X") or (task / "wchan").read_text() != "0"
    except (FileNotFoundError, ProcessLookupError):  # ended meanwhile
        return True


def _fields(path: Path) -> dict[str, int]:
    """A flat keyed file of cgroup v2 (``usage_usec 12``) as a dict."""
    return {key: int(value) for key, value in
            (line.split() for line in path.read_text().splitlines() if line.strip())}


def waited(pressure: Path) -> float | None:
    """The "some" total of a ``cpu.pressure`` file, in seconds; None where it can't be read."""
    try:
        for line in pressure.read_text().splitlines():
            if line.startswith("some "):
                return int(line.rsplit("total=", 1)[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None
    return None


def ours() -> Iterator[Path]:
    """The folders of groups this module made, in every process."""
    try:
        base = hierarchy()
    except (NoGroups, OSError):
        return
    yield from base.glob(f"{PREFIX}*")


def sweep(owner: int | None = None) -> int:
    """Remove the groups of processes that have ended (killed before they could),
    or those of ``owner`` (ending: a zombie's folder is still in /proc), their tasks
    killed first, frozen ones too: how many were removed."""
    removed = 0
    for folder in ours():
        pid = folder.name.removeprefix(PREFIX).split("-")[0]
        if pid != str(owner) and (owner is not None or Path(f"/proc/{pid}").exists()):
            continue
        try:
            Group.adopt(folder, owned=True).remove()
            removed += 1
        except (OSError, Stuck):  # its tasks still dying, or gone meanwhile: the next sweep
            pass
    return removed
