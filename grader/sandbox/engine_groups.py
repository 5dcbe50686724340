"""A grading container's control group, as the host times, kills and removes it.

The group is a cgroup v2 one, found from the container's first process
(``cgroups.of_container``): the engine's own where its path names the
container, as a v2 engine's does, and a v1 engine's too on a host with v2
mounted beside v1 (its runtime puts each container in a v2 group of the same
name as its v1 ones). Where no group names it, the grader makes one and moves
the container's processes into it once it has started, before its job
arrives (what the launcher forks after is born there). Where this host can
make no v2 group, the run is timed by the wall clock.
"""

from typing import TYPE_CHECKING

from grader.sandbox import cgroups

if TYPE_CHECKING:
    from docker.models.containers import Container


def of(container: "Container") -> cgroups.Group | None:
    """The group of ``container``, started (its state loaded): the engine's, or one
    the grader made for it and owns; None where no v2 group can be had here."""
    pid = container.attrs.get("State", {}).get("Pid")
    if not pid or cgroups.available() is not None:
        return None
    return cgroups.of_container(pid, str(container.id))


def drop(group: cgroups.Group) -> None:
    """Kill what is left in a group the grader made, and remove it."""
    try:
        group.remove()
    except OSError:  # still emptying: the next sweep removes it
        pass
