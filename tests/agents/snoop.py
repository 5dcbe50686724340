"""Snoop: tries to read the other agent, the referee and the grader's baselines,
and to reach the network. Finding anything, it returns what it found as its
move (an illegal one, shown in the game's reason); finding nothing, it plays."""

import glob
import os
import socket
import sys

# its own folder: its current one is a working folder of its own
HERE = os.path.dirname(os.path.abspath(__file__))


def processes():
    """Other agents' or the referee's processes: any not of this agent's own folder."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                line = handle.read().decode(errors="replace")
        except OSError:
            continue
        if ("runner.py" in line or "grader" in line) and HERE not in line:
            found.append(line[:80])
    return found


def files():
    package = os.path.dirname(sys.modules["grader"].__file__)
    found = [path for pattern in ("match/*.py", "harness/runtime/supervisor.py",
                                  "harness/checking/*.py", "harness/lesson/*.py",
                                  "../exercises/*/suite/*.py", "../solutions/*/*/*.py")
             for path in glob.glob(f"{package}/{pattern}")]
    found += [path for path in glob.glob("/tmp/*/agent.py") if not path.startswith(HERE)]
    return found + glob.glob("/root/*") + glob.glob("/home/*/*")


def network():
    try:
        socket.create_connection(("127.0.0.1", 22), timeout=0.2).close()
        return ["127.0.0.1:22"]
    except OSError:
        return []


class Agent:
    def get_move(self, game, time_left):
        found = processes() + files() + network()
        return ("found", str(found)[:150]) if found else game.get_legal_moves()[0]
