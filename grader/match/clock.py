"""The CPU time of an agent's process, read from outside it.

An agent's process may be a chain (bwrap, its init, setpriv, the interpreter)
and may start children of its own: its time is the whole tree's, the living
processes' own time plus what their reaped children used, from ``/proc``.
"""

import os

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat", "rb") as handle:
        text = handle.read().decode()
    return text[text.rindex(")") + 2:].split()  # after the command's name, which may hold spaces


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    except OSError:  # ended while being read
        pass
    return found


def tree_cpu(pid: int) -> float:
    """Seconds of CPU used by ``pid`` and its descendants, reaped ones included."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            fields = _stat(current)
        except (OSError, ValueError):
            continue
        # utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the name
        total += sum(int(value) for value in fields[11:15])
        todo += _children(current)
    return total / TICK
