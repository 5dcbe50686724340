"""Resource limits the supervisor sets on itself before any student code runs.

The student's worker inherits them. In the Docker sandbox the container's
own limits come first; these are a second line there and the only one in
the local sandbox.
"""

import os
import resource

from grader.contracts.job import Limits
from grader.contracts.owntime import backstop


def _processes_of(uid: int) -> int:
    """How many processes ``uid`` runs now (RLIMIT_NPROC counts them all)."""
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                count += os.stat(f"/proc/{entry}").st_uid == uid
            except OSError:
                pass
    return count


def _set(which: int, value: int) -> None:
    soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def apply(limits: Limits) -> None:
    # In the Docker sandbox the container's memory limit does this job, so
    # that running out of memory shows as the container's OOM kill.
    if limits.get("address_space_mb"):
        _set(resource.RLIMIT_AS, limits["address_space_mb"] << 20)
    _set(resource.RLIMIT_CORE, 0)
    _set(resource.RLIMIT_NOFILE, 256)
    _set(resource.RLIMIT_FSIZE, limits["file_bytes"])
    # Each process's CPU, a backstop only: the run's control group counts the
    # CPU of all of them, and the host stops the run at its limit.
    _set(resource.RLIMIT_CPU, int(backstop(limits["total_seconds"])))
    _set(resource.RLIMIT_NPROC, _processes_of(os.getuid()) + limits["processes"])
    # No process of the run raises its priority again: a thread that lowered its
    # own stays behind, and its wait stays uncounted (``owntime.thread_wait``).
    _set(resource.RLIMIT_NICE, 0)
