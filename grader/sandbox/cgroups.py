"""Control groups: the kernel's account of a run's whole process tree.

A run (a sandbox's supervisor and the student's workers, or an agent's
process) is put in a group of its own. The kernel then counts the CPU of
every thread and child in it, the reaped ones too (a child reaped by a
SIGCHLD set to ignored is not in any rusage, but it is in its group), and
how long its tasks waited for a CPU the machine gave to others (pressure
stall information, v2 only); it freezes and kills the group as one.

Both versions are supported: v2 (``cgroup.freeze``, ``cpu.stat``,
``cpu.pressure``, ``cgroup.kill``), mounted at /sys/fs/cgroup or beside v1
at /sys/fs/cgroup/unified; and v1, where a group is a folder in each of the
``cpuacct`` and ``freezer`` hierarchies (no pressure: a v1 group's waiting
is unknown). v2 is taken wherever it can be written. Groups are made under
this process's own group (a service unit with ``Delegate=yes`` owns its
subtree), named ``minimax-grader-<pid>-<n>``: those of a process that has
ended are removed by the next ``sweep``.
"""

import functools
import itertools
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MOUNTS = Path("/proc/self/mounts")
PREFIX = "minimax-grader-"
_numbers = itertools.count()
FREEZE_SECONDS = 5  # how long a freeze may take before the group is taken as stuck


class NoGroups(Exception):
    """No control group can be made here: why, for the one loud notice."""


class Stuck(Exception):
    """A group was not frozen (or thawed) within ``FREEZE_SECONDS``."""


@dataclass(frozen=True)
class Hierarchy:
    """Where groups are made: a v2 folder, or the v1 cpuacct and freezer folders."""

    version: int
    base: Path  # v2: the parent folder; v1: the cpuacct hierarchy's parent folder
    freezer: Path | None = None  # v1 only


def _mounts() -> list[tuple[str, Path, str]]:
    """(file system type, mount point, options) of the mounted cgroup hierarchies."""
    found = []
    for line in MOUNTS.read_text().splitlines():
        parts = line.split()
        if len(parts) > 3 and parts[2] in ("cgroup", "cgroup2"):
            found.append((parts[2], Path(parts[1].replace("\\040", " ")), parts[3]))
    return found


def v2_mount() -> Path | None:
    """Where the cgroup v2 hierarchy is mounted (every run's group and every v2
    container's lie below it), or None."""
    return next((point for kind, point, _ in _mounts() if kind == "cgroup2"), None)


def _own(controller: str, pid: int | str = "self") -> str:
    """The group of process ``pid`` (this one by default) in the hierarchy of
    ``controller`` ("" for v2)."""
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if (controller == "" and number == "0") or controller in controllers.split(","):
            return path.lstrip("/")
    raise NoGroups(f"process {pid} is in no {controller or 'v2'} control group")


def _writable(folder: Path) -> bool:
    probe = folder / f"{PREFIX}probe-{os.getpid()}"
    try:
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


@functools.cache
def hierarchy() -> Hierarchy:
    """Where this process makes its groups; NoGroups (saying why) where it can't."""
    mounts = _mounts()
    for kind, point, _ in mounts:
        if kind == "cgroup2":
            base = point / _own("")
            if _writable(base):
                return Hierarchy(2, base)
    v1 = {name: point for kind, point, options in mounts if kind == "cgroup"
          for name in options.split(",") if name in ("cpuacct", "freezer")}
    if {"cpuacct", "freezer"} <= v1.keys():
        cpuacct, freezer = v1["cpuacct"] / _own("cpuacct"), v1["freezer"] / _own("freezer")
        if _writable(cpuacct) and _writable(freezer):
            return Hierarchy(1, cpuacct, freezer)
    raise NoGroups("no control group can be made here (neither a writable cgroup v2 folder "
                   "nor writable cpuacct and freezer v1 hierarchies): as root, or with a "
                   "delegated group (a systemd unit's Delegate=yes)")


def available() -> str | None:
    """None where groups can be made; else why not."""
    try:
        hierarchy()
    except (NoGroups, OSError) as exc:
        return str(exc)
    return None


class Group:
    """One run's control group: made empty, then the run's first process is put in it."""

    def __init__(self, where: Hierarchy | None = None) -> None:
        self.where = where or hierarchy()
        self.name = f"{PREFIX}{os.getpid()}-{next(_numbers)}"
        self.folders = [self.where.base / self.name]
        if self.where.freezer is not None:
            self.folders.append(self.where.freezer / self.name)
        for folder in self.folders:
            folder.mkdir()
        self.owned = True  # made here: ``remove`` removes it

    @classmethod
    def adopt(cls, where: Hierarchy, folders: list[Path], owned: bool = False) -> "Group":
        """A group made by another (a container engine's): read, frozen and killed
        here, removed by its maker (or here, where ``owned``: one of ours left behind)."""
        group = cls.__new__(cls)
        group.where, group.name, group.folders = where, folders[0].name, folders
        group.owned = owned
        return group

    @property
    def folder(self) -> Path:
        """The folder whose files tell the CPU and the pressure (v2: the only one)."""
        return self.folders[0]

    @property
    def procs(self) -> list[Path]:
        """The files a process id is written to, to put it in the group."""
        return [folder / "cgroup.procs" for folder in self.folders]

    def command(self, argv: list[str]) -> list[str]:
        """``argv``, run in the group: a shell puts itself in it, then becomes ``argv``
        (so that nothing of it runs outside the group, and no pid is raced)."""
        join = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1"; shift; n=$((n-1)); done'
        return ["sh", "-c", f'{join}; exec "$@"', "sh", str(len(self.procs)),
                *map(str, self.procs), *argv]

    def add(self, pid: int) -> None:
        for procs in self.procs:
            procs.write_text(f"{pid}\n")

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
        if self.where.version == 2:
            usage = _fields(self.folder / "cpu.stat")["usage_usec"]
            return usage / 1e6
        return int((self.folder / "cpuacct.usage").read_text()) / 1e9

    def waited_seconds(self) -> float | None:
        """How long, in all, some task of the group waited for a CPU that was busy
        with others (v2's pressure stall, "some"); None where it is not known."""
        return waited(self.folder / "cpu.pressure") if self.where.version == 2 else None

    def freeze(self) -> None:
        """Stop every task of the group until ``thaw``; waits until they are stopped
        and their CPU is all counted (Stuck past ``FREEZE_SECONDS``)."""
        self._freezing(True)

    def thaw(self) -> None:
        self._freezing(False)

    def _freezing(self, frozen: bool) -> None:
        deadline = time.monotonic() + FREEZE_SECONDS
        self._ask_freezer(frozen)
        while not (self._frozen_is(frozen) and (not frozen or self._off_cpu())):
            if time.monotonic() > deadline:
                raise Stuck(f"its control group was not {'frozen' if frozen else 'thawed'} "
                            f"within {FREEZE_SECONDS} s")
            time.sleep(0.001)

    def _off_cpu(self) -> bool:
        """Whether every task of the group has left its CPU. The kernel tells "frozen"
        once the last task has entered the freezer, before it has switched away, and
        counts that last stretch only then: on a busy machine, a while after."""
        return all(_left_cpu(task) for pid in self.pids() for task in _tasks(pid))

    def _ask_freezer(self, frozen: bool) -> None:
        if self.where.version == 2:
            (self.folder / "cgroup.freeze").write_text("1" if frozen else "0")
        else:
            (self.folders[1] / "freezer.state").write_text("FROZEN" if frozen else "THAWED")

    def _frozen_is(self, frozen: bool) -> bool:
        if self.where.version == 2:
            return _fields(self.folder / "cgroup.events").get("frozen") == int(frozen)
        state = (self.folders[1] / "freezer.state").read_text().strip()
        return state == ("FROZEN" if frozen else "THAWED")

    def kill(self) -> None:
        """SIGKILL every task of the group (thawed first: a frozen task can't die)."""
        if self.where.version == 2 and (self.folder / "cgroup.kill").exists():
            (self.folder / "cgroup.kill").write_text("1")
        else:
            for pid in self.pids():
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
        self.thaw()

    def remove(self) -> None:
        """Kill what is left and remove the group's folders (once they are empty)."""
        self.kill()
        if not self.owned:
            return
        deadline = time.monotonic() + FREEZE_SECONDS
        for folder in self.folders:
            while folder.exists():
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    break
                except OSError:  # tasks still dying
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.01)


def of_container(pid: int, container_id: str) -> Group:
    """The group of a container whose first process is ``pid``: the engine's own
    group of it (a v2 group, which on machines with v1 beside v2 the engine
    makes too, or v1's cpuacct and freezer), else one made here with the
    container's processes moved into it (engines name their groups by the
    container: that is for those that do not)."""
    where = hierarchy()
    controllers = [""] if where.version == 2 else ["cpuacct", "freezer"]
    paths = [_own(controller, pid) for controller in controllers]
    if all(container_id in path for path in paths):
        points = {name: point for kind, point, options in _mounts()
                  for name in ([""] if kind == "cgroup2" else options.split(","))}
        return Group.adopt(where, [points[controller] / path
                                   for controller, path in zip(controllers, paths, strict=True)])
    group = Group(where)
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
        where = hierarchy()
    except (NoGroups, OSError):
        return
    for parent in filter(None, (where.base, where.freezer)):
        yield from parent.glob(f"{PREFIX}*")


def sweep(owner: int | None = None) -> int:
    """Remove the groups of processes that have ended (killed before they could),
    or those of ``owner`` (ending: a zombie's folder is still in /proc), their tasks
    killed first, frozen ones too: how many were removed."""
    removed = 0
    left = [folder for folder in ours()
            if (pid := folder.name.removeprefix(PREFIX).split('-')[0]) == str(owner)
            or (owner is None and not Path(f"/proc/{pid}").exists())]
    by_name: dict[str, list[Path]] = {}
    for folder in left:
        by_name.setdefault(folder.name, []).append(folder)
    where = hierarchy() if left else None
    for folders in by_name.values():
        assert where is not None
        try:
            Group.adopt(where, folders, owned=True).remove()
            removed += 1
        except (OSError, Stuck):  # its tasks still dying, or gone meanwhile: the next sweep
            pass
    return removed
