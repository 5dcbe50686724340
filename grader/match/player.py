"""The agents a referee plays with: in a process of their own, or in the referee's.

An agent's process answers one request at a time (``grader.contracts.agent``).
While it thinks, the referee reads the CPU time of the process from outside
(``clock``) and the wall clock: past either limit it is killed and the move
is lost; what it prints is read all along and kept up to a cap, and past
``FLOOD`` bytes in one game it is killed too. A process that was killed or
ended is started again for the next game, so that a fault costs one game.
"""

import os
import random
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Protocol

from grader.contracts import agent as contract
from grader.contracts import protocol
from grader.games.knights.rules import QueenBoard, board_from_data, to_data
from grader.match.clock import tree_cpu

FLOOD = 64 << 10  # bytes an agent may print in one game
LOG_KEPT = 2 << 10  # of which the report shows this much
START_SECONDS = 10.0  # to start the process and make the agent (imports, the sandbox)


@dataclass(frozen=True)
class Limits:
    """A move's CPU time, and the wall clock's backstop: ``wall_factor`` times as long
    (loose: it is there for an agent that sleeps or blocks, on a loaded machine)."""

    cpu_seconds: float = 1.0
    wall_factor: float = 10.0

    @property
    def wall_seconds(self) -> float:
        return self.cpu_seconds * self.wall_factor


@dataclass(frozen=True)
class Answer:
    """What came of asking for a move: the reply, or ``fault`` (why it loses)."""

    reply: contract.Reply
    cpu: float
    wall: float
    fault: str | None = None


class Agent(Protocol):
    name: str

    def new_game(self, variant: str, player: int, seed: int) -> str | None:
        """Get ready for a game; a fault (the game is lost) or None."""

    def move(self, state: QueenBoard, limits: Limits) -> Answer: ...

    def output(self) -> str:
        """What the agent printed in this game (capped)."""

    def close(self) -> None: ...


class ProcessAgent:
    """An agent in its own process, started by ``command`` (a sandbox's, or plain)."""

    def __init__(self, name: str, command: Sequence[str], env: dict[str, str], cwd: str,
                 cleanup: Callable[[], object] = lambda: None, remove: str | None = None
                 ) -> None:
        """``cleanup`` runs after each kill; ``remove``, a folder of the agent's, goes
        with ``close``."""
        self.name, self.command, self.env, self.cwd = name, list(command), env, cwd
        self.cleanup, self.remove = cleanup, remove
        self.process: subprocess.Popen[bytes] | None = None
        self.printed, self.kept = 0, bytearray()
        self.pending = b""

    def _launch(self) -> list[str]:
        """The command that starts the agent's process (a fresh one each time)."""
        return self.command

    def _cpu(self) -> float:
        """The CPU time the agent's processes have used, in seconds."""
        assert self.process is not None
        return tree_cpu(self.process.pid)

    def _start(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(self._launch(), cwd=self.cwd, env=self.env,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, start_new_session=True)
        assert process.stdout is not None and process.stderr is not None
        os.set_blocking(process.stdout.fileno(), False)
        threading.Thread(target=self._drain, args=(process.stderr,), daemon=True).start()
        self.pending = b""
        return process

    def _drain(self, stream: IO[bytes]) -> None:
        while chunk := stream.read1(65536):  # type: ignore[attr-defined]
            self.printed += len(chunk)
            room = LOG_KEPT - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]

    def new_game(self, variant: str, player: int, seed: int) -> str | None:
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        self.printed, self.kept = 0, bytearray()
        answer = self._ask(contract.new_game(variant, player, seed), START_SECONDS, START_SECONDS)
        return answer.fault or (f"could not start: {answer.reply.error}"
                                if answer.reply.error else None)

    def move(self, state: QueenBoard, limits: Limits) -> Answer:
        request = contract.ask_move(to_data(state), limits.cpu_seconds, limits.wall_seconds)
        return self._ask(request, limits.cpu_seconds, limits.wall_seconds)

    def _ask(self, request: bytes, cpu_limit: float, wall_limit: float) -> Answer:
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        cpu_start, wall_start = self._cpu(), time.monotonic()

        def lost(fault: str) -> Answer:
            cpu = self._cpu() - cpu_start
            self._kill()
            return Answer(contract.Reply(), cpu, time.monotonic() - wall_start, fault)

        try:
            process.stdin.write(request)
            process.stdin.flush()
        except OSError:
            return lost(self._ended())
        out = process.stdout.fileno()
        while b"\n" not in self.pending:
            cpu, wall = self._cpu() - cpu_start, time.monotonic() - wall_start
            if cpu > cpu_limit or wall > wall_limit:
                return lost(_timeout(cpu, cpu_limit, wall, wall_limit))
            if self.printed > FLOOD:
                return lost(f"printed more than {FLOOD >> 10} KiB in one game")
            # CPU time runs no faster than the wall clock on each core: look again
            # at most when half of what is left of the CPU limit could be used.
            pause = max(0.005, min((cpu_limit - cpu) / 2, wall_limit - wall))
            if select.select([out], [], [], pause)[0]:
                chunk = os.read(out, 65536)
                if not chunk:
                    return lost(self._ended())
                self.pending += chunk
                if len(self.pending) > protocol.MAX_LINE:
                    return lost("sent a reply longer than the protocol allows")
        line, _, self.pending = self.pending.partition(b"\n")
        cpu, wall = self._cpu() - cpu_start, time.monotonic() - wall_start
        if cpu > cpu_limit or wall > wall_limit:
            return lost(_timeout(cpu, cpu_limit, wall, wall_limit))
        if self.printed > FLOOD:
            return lost(f"printed more than {FLOOD >> 10} KiB in one game")
        try:
            return Answer(contract.read_reply(line), cpu, wall)
        except protocol.BadMessage as exc:
            return lost(f"sent a reply the referee can't read ({exc})")

    def _ended(self) -> str:
        assert self.process is not None
        code = self.process.wait()
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return f"crashed: its process ended ({how})"

    def output(self) -> str:
        text = bytes(self.kept).decode("utf-8", "replace")
        return text + (" [...]" if self.printed > len(self.kept) else "")

    def _kill(self) -> None:
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            self.cleanup()

    def close(self) -> None:
        self._kill()
        self.process = None
        if self.remove:
            shutil.rmtree(self.remove, ignore_errors=True)


def _timeout(cpu: float, cpu_limit: float, wall: float, wall_limit: float) -> str:
    if cpu > cpu_limit:
        return f"ran out of time: {cpu:.2f} s of CPU time, the limit is {cpu_limit:g} s"
    return (f"ran out of time: {wall:.2f} s on the wall clock (the backstop; the CPU "
            f"limit is {cpu_limit:g} s), having used {cpu:.2f} s of CPU time")


class InProcessAgent:
    """A trusted agent called in the referee's own process (baselines, benchmarks):
    its limits are only what its ``time_left`` tells it."""

    def __init__(self, name: str, cls: type) -> None:
        self.name, self.cls = name, cls
        self.agent: object = None
        self.variant = "knights"

    def new_game(self, variant: str, player: int, seed: int) -> str | None:
        random.seed(seed)  # as an agent's process does: the same seed, the same game
        self.variant, self.agent = variant, self.cls()
        return None

    def move(self, state: QueenBoard, limits: Limits) -> Answer:
        cpu_start, wall_start = time.thread_time(), time.monotonic()
        time_left = contract.countdown(limits.cpu_seconds, limits.wall_seconds,
                                       time.thread_time)
        # A copy, as an agent's process gets: the referee's state stays its own.
        move = self.agent.get_move(  # type: ignore[attr-defined]
            board_from_data(self.variant, to_data(state)), time_left)
        depth = getattr(self.agent, "search_depth", None)
        reply = contract.Reply(move=contract.as_move(move), shown=protocol.describe(move),
                               depth=depth if type(depth) is int else None)
        return Answer(reply, time.thread_time() - cpu_start, time.monotonic() - wall_start)

    def output(self) -> str:
        return ""

    def close(self) -> None:
        pass
