"""What crosses between the referee and an agent's process, one JSON line each way.

The referee asks (``new_game``, then ``ask_move`` for each of the agent's turns);
the agent's process answers each with one line: ``{"ok": true}`` to a new game,
``{"move": <encoded>, "depth": <int or null>}`` to a move, or ``{"error": <text>}``
when the agent's code raised. Values travel as ``protocol.encode`` describes, so
nothing of the agent's objects survives the trip; ``read_reply`` runs on the
referee's side and trusts nothing it reads.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass

from grader.contracts import protocol

MARGIN = 0.15  # of the CPU limit, kept back from what ``time_left()`` offers
# The environment variable that names the folders (os.pathsep between) whose
# libraries an agent may import beside the standard library (NumPy), where the
# agent's interpreter has none of its own.
LIBRARIES = "MINIMAX_AGENT_LIBRARIES"


def new_game(variant: str, player: int, seed: int) -> bytes:
    """A new game of ``variant``, the agent playing ``player`` (0 moves first); the
    agent's process seeds ``random`` with ``seed`` so that a game can be replayed."""
    return protocol.dumps({"op": "new", "variant": variant, "player": player, "seed": seed})


def ask_move(state: dict[str, object], cpu_seconds: float) -> bytes:
    """The agent's turn on ``state`` (``rules.to_data``'s plain data), with its CPU limit."""
    return protocol.dumps({"op": "move", "state": state, "cpu": cpu_seconds})


def answer(**fields: object) -> bytes:
    """One reply line (the agent's process)."""
    return protocol.dumps(fields)


@dataclass(frozen=True)
class Reply:
    """A reply as the referee read it: ``move`` a plain ``(x, y)`` of ints or None,
    ``shown`` what came back (for feedback), ``error`` what the agent raised;
    ``depth`` is what the agent says of its search (a note, never a verdict)."""

    move: tuple[int, int] | None = None
    shown: str = ""
    error: str | None = None
    depth: int | None = None


def as_move(value: object) -> tuple[int, int] | None:
    """``value`` as a move: a tuple of two plain ints, else None."""
    if type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value):
        return (value[0], value[1])
    return None


def read_reply(line: bytes) -> Reply:
    """The reply in ``line``; raises ``protocol.BadMessage`` when it is none."""
    message = protocol.loads(line)
    if "error" in message:
        return Reply(error=str(message["error"])[:protocol.MAX_TEXT])
    if message.get("ok") is True:
        return Reply()
    if "move" not in message:
        raise protocol.BadMessage("a reply with no move")
    value = protocol.decode(message["move"])
    depth = message.get("depth")
    return Reply(move=as_move(value), shown=protocol.describe(value),
                 depth=depth if type(depth) is int else None)


def countdown(cpu: float,
              clock: Callable[[], float] = time.process_time) -> Callable[[], float]:
    """An agent's ``time_left()``: the milliseconds left of its move's CPU time less
    the margin, so that an agent that stops at 0 is within its limit. Only CPU
    time counts, never the wall clock: on a busy machine the agent gets its CPU
    later, not less of it. ``clock``: the CPU time that counts (the process's,
    every thread of it; a thread's, for an agent in the referee's process)."""
    end = clock() + cpu * (1 - MARGIN)

    def time_left() -> float:
        return 1000 * (end - clock())

    return time_left
