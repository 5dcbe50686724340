"""A grading container's control group, as the host times, kills and removes it.

A v2 engine puts each container in a v2 group of its own, which the host
finds from the container's first process (``cgroups.of_container``). A v1
engine's groups can't tell how long a run waited for a CPU, so where this
host has v2 beside v1 the grader makes a v2 group of its own for each such
container and moves the container's processes into it once it has started,
before its job arrives (what the launcher forks after is born there). Where
neither can be had, the run is timed by the wall clock.
"""

from typing import TYPE_CHECKING

from grader.sandbox import cgroups

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.models.containers import Container


class EngineGroups:
    """The control groups of one engine's grading containers."""

    def __init__(self, client: "DockerClient") -> None:
        self.client = client
        self._version: str | None = None

    def version(self) -> str:
        """The engine's control groups (asked once): "2" or "1"."""
        if self._version is None:
            self._version = str(self.client.info().get("CgroupVersion", "1"))
        return self._version

    def of(self, container: "Container") -> cgroups.Group | None:
        """The group of ``container``, started (its state loaded): the engine's own
        (a v2 engine's), or a v2 group the grader made for it and owns (a v1
        engine's, where this host has v2 beside); None where there is neither."""
        pid = container.attrs.get("State", {}).get("Pid")
        if not pid or cgroups.available() is not None:
            return None
        if self.version() == "2":
            return cgroups.of_container(pid, str(container.id))
        made = cgroups.Group()
        if made.where.version != 2:  # v1 alone: no better than the engine's own
            made.remove()
            return None
        made.take(pid)
        return made


def drop(group: cgroups.Group) -> None:
    """Kill what is left in a group the grader made, and remove it."""
    try:
        group.remove()
    except OSError:  # still emptying: the next sweep removes it
        pass
