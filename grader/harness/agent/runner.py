"""An agent's process: loads an agent class and answers the referee's requests.

``python runner.py AGENT_FILE CLASS [MEMORY_MB]`` (limits set with MEMORY_MB).
Requests come on stdin and replies go out on a copy of stdout made before the
agent's module is loaded; stdout itself is then pointed at stderr, so what the
agent prints goes to the referee's capped log, never into its replies. Nothing
here decides anything: the referee times the process by its control group,
from outside, and checks each move against its own rules; ``time_left()``
counts this process's CPU time (every thread of it) down to the margin.
"""

import importlib
import os
import random
import resource
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[3])]

from grader.contracts import agent as contract  # noqa: E402  (needs the path above)
from grader.contracts import protocol  # noqa: E402
from grader.games.knights.rules import board_from_data  # noqa: E402
from grader.harness.runtime import limits  # noqa: E402

PROCESSES = 16  # that an agent may start


def load(path: str, name: str) -> type:
    """The class ``name`` of the module at ``path`` (its folder importable)."""
    folder, stem = os.path.split(os.path.abspath(path))
    sys.path.insert(0, folder)
    cls = getattr(importlib.import_module(stem.removesuffix(".py")), name)
    if not isinstance(cls, type):
        raise TypeError(f"{name} is not a class")
    return cls


def failure(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException:  # an exception of the agent's own may raise in __str__ too
        text = protocol.safe_repr(exc)
    return f"{type(exc).__name__}: {text}"[:protocol.MAX_TEXT]


def serve(cls: type | None, loading: str, send: Callable[[bytes], object]) -> None:
    agent: Any = None
    variant = "knights"
    for line in sys.stdin.buffer:
        request: dict[str, Any] = protocol.loads(line)
        try:
            if cls is None:
                raise ImportError(loading)
            if request["op"] == "new":
                random.seed(request["seed"])
                variant, agent = str(request["variant"]), cls()
                send(contract.answer(ok=True))
                continue
            state = board_from_data(variant, request["state"])
            move = agent.get_move(state, contract.countdown(request["cpu"]))
            depth = getattr(agent, "search_depth", None)
            send(contract.answer(move=protocol.encode(move),
                                 depth=depth if type(depth) is int else None))
        except BaseException as exc:  # whatever the agent raises loses its game, no more
            send(contract.answer(error=failure(exc)))


def confine(memory_mb: int) -> None:
    """Limits of the agent's process, set as the supervisor sets its own: memory, no
    core files, few files, a few processes more than it runs now, small writes."""
    limits._set(resource.RLIMIT_AS, memory_mb << 20)
    limits._set(resource.RLIMIT_CORE, 0)
    limits._set(resource.RLIMIT_NOFILE, 64)
    limits._set(resource.RLIMIT_FSIZE, 1 << 20)
    limits._set(resource.RLIMIT_NPROC, limits._processes_of(os.getuid()) + PROCESSES)


def main(argv: list[str]) -> None:
    if len(argv) > 3:
        confine(int(argv[3]))
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr  # unbuffered: the referee sees prints as they happen
    cls, loading = None, ""
    try:
        cls = load(argv[1], argv[2])
    except BaseException as exc:  # the agent's module may raise anything, exit included
        loading = failure(exc)
    serve(cls, loading, replies.write)


if __name__ == "__main__":
    main(sys.argv)
