"""The agents a referee plays with: in a process of their own, or in the referee's.

An agent's process answers one request at a time (``grader.contracts.agent``).
It runs in a control group of its own (``clock``), which counts its CPU and
how long it waited for a CPU busy with others, and which is frozen whenever it
is not the agent's turn: thawed for a request, frozen again once the reply is
read, so that nothing of it runs on the opponent's time. While it thinks, the
referee reads its clock: past the CPU limit, or past the wall limit on its own
time (the wall clock less its wait for a CPU), it is killed and the move is
lost; at the backstop, far above, a move ends uncharged (the game is played
again). What it prints is read all along and kept up to a cap, and past
``FLOOD`` bytes in one game it is killed too. A process that was killed or
ended is started again for the next game, so that a fault costs one game.

Nothing of an agent outlives the command that plays it. Its process gets
SIGKILL when the thread that started it ends (the kernel's parent-death
signal, which a frozen process gets too; bubblewrap's ``--die-with-parent``
passes it on, though not across the change of uid of root's sandbox: there
the command's watcher, ``clock.watch``, kills its groups); and
``stopping_on_signals`` makes SIGINT and SIGTERM close every live agent
(``stop_all``: its group killed and removed, its container too) before the
command ends.
"""

import contextlib
import os
import random
import select
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from types import FrameType
from typing import IO, Protocol

from grader.contracts import agent as contract
from grader.contracts import protocol
from grader.games.knights.rules import QueenBoard, board_from_data, to_data
from grader.match import clock
from grader.sandbox import cgroups

FLOOD = 64 << 10  # bytes an agent may print in one game
LOG_KEPT = 2 << 10  # of which the report shows this much
START_SECONDS = 10.0  # to start the process and make the agent (imports, the sandbox)
# The backstop, as a multiple of the wall limit: only a move its machine starved
# of CPU for this long meets it (sleeping and blocking meet the wall limit first).
BACKSTOP = 3.0
# What dies with its parent: setpriv sets the signal, then runs the command
# (a Popen's preexec_fn would do it too, but is unsafe beside threads).
DIES_WITH_PARENT = [shutil.which("setpriv") or "setpriv", "--pdeathsig", "KILL", "--"]


class Stopped(BaseException):
    """The command is stopping (``stop_all``): no agent starts again, and no game a
    stop cut short is kept. A BaseException, so that no handler of an agent's
    faults takes it for one."""


_live: set["ProcessAgent"] = set()
_lock = threading.RLock()  # re-entrant: a signal's handler may run while it is held
_stopping = threading.Event()


@dataclass(frozen=True)
class Limits:
    """A move's CPU time, and its wall limit, ``wall_factor`` times as long: of the
    agent's own time on the wall clock (what it computed, slept or blocked), never
    its wait for a CPU busy with others. The backstop is ``BACKSTOP`` times that."""

    cpu_seconds: float = 1.0
    wall_factor: float = 10.0

    @property
    def wall_seconds(self) -> float:
        return self.cpu_seconds * self.wall_factor

    @property
    def backstop_seconds(self) -> float:
        return self.wall_seconds * BACKSTOP


class Deadline:
    """A whole match's allowance of one agent's own time (its CPU, or its own wall
    time where more), shared by the processes of its pairings played side by side."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.used = seconds, 0.0
        self.lock = threading.Lock()

    def left(self) -> float:
        return self.seconds - self.used

    def spend(self, seconds: float) -> None:
        with self.lock:
            self.used += seconds

    def passed(self) -> str:
        return (f"ran past the match's deadline: {self.used:.1f} s of its own time in its "
                f"games, the deadline is {self.seconds:g} s")


@dataclass(frozen=True)
class Spent:
    """What one request took: CPU, wall clock, and of that the wait for a CPU busy
    with others (None: not known, and then all the wall time is the agent's own)."""

    cpu: float
    wall: float
    waited: float | None

    @property
    def own(self) -> float:
        return max(0.0, self.wall - (self.waited or 0.0))


@dataclass(frozen=True)
class Answer:
    """What came of asking for a move: the reply, or ``fault`` (why it loses; a
    fault not ``charged`` loses nothing: the game is played again)."""

    reply: contract.Reply
    cpu: float
    wall: float
    fault: str | None = None
    waited: float | None = None
    charged: bool = True


class Agent(Protocol):
    name: str

    def new_game(self, variant: str, player: int, seed: int) -> Answer:
        """Get ready for a game: an answer with no move, whose fault loses the game."""

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
        with ``close``. ``deadline`` is set by a match that has one."""
        self.name, self.command, self.env, self.cwd = name, list(command), env, cwd
        self.cleanup, self.remove = cleanup, remove
        self.process: subprocess.Popen[bytes] | None = None
        self.clock: clock.Clock | None = None
        self.group: cgroups.Group | None = None
        self.deadline: Deadline | None = None
        self.printed, self.kept = 0, bytearray()
        self.pending = b""

    def _launch(self) -> list[str]:
        """The command that starts the agent's process (a fresh one each time)."""
        return self.command

    def _command(self) -> list[str]:
        """``_launch``'s command, run in a new group of its own where one can be made."""
        self.group = clock.group()
        return self.group.command(self._launch()) if self.group else self._launch()

    def _clock(self, process: subprocess.Popen[bytes]) -> clock.Clock:
        """The clock of the process just started."""
        return clock.GroupClock(self.group) if self.group else clock.TreeClock(process.pid)

    def _start(self) -> None:
        # Under the lock: ``stop_all`` sees every process started before it, and
        # none starts after it.
        with _lock:
            if _stopping.is_set():
                raise Stopped
            process = subprocess.Popen([*DIES_WITH_PARENT, *self._command()], cwd=self.cwd,
                                       env=self.env, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       start_new_session=True)
            _live.add(self)
        assert process.stdout is not None and process.stderr is not None
        os.set_blocking(process.stdout.fileno(), False)
        threading.Thread(target=self._drain, args=(process.stderr,), daemon=True).start()
        self.pending = b""
        self.process, self.clock = process, self._clock(process)

    def _drain(self, stream: IO[bytes]) -> None:
        while chunk := stream.read1(65536):  # type: ignore[attr-defined]
            self.printed += len(chunk)
            room = LOG_KEPT - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]

    def new_game(self, variant: str, player: int, seed: int) -> Answer:
        if self.deadline is not None and self.deadline.left() <= 0:
            return Answer(contract.Reply(), 0.0, 0.0, self.deadline.passed())
        if self.process is None or self.process.poll() is not None:
            self._kill()
            self._start()
        self.printed, self.kept = 0, bytearray()
        answer = self._ask(contract.new_game(variant, player, seed), Limits(START_SECONDS, 1.0))
        if answer.fault is None and answer.reply.error is not None:
            return replace(answer, fault=f"could not start: {answer.reply.error}")
        return answer

    def move(self, state: QueenBoard, limits: Limits) -> Answer:
        return self._ask(contract.ask_move(to_data(state), limits.cpu_seconds), limits)

    def _ask(self, request: bytes, limits: Limits) -> Answer:
        process, timed = self.process, self.clock
        assert process is not None and process.stdin is not None and process.stdout is not None
        assert timed is not None
        timed.thaw()
        cpu_start, waited_start = timed.read()
        wall_start = time.monotonic()

        def spent() -> Spent:
            cpu, waited = timed.read()
            return Spent(cpu - cpu_start, time.monotonic() - wall_start,
                         None if waited is None or waited_start is None
                         else waited - waited_start)

        def answer(reply: contract.Reply, used: Spent, fault: str | None = None,
                   charged: bool = True) -> Answer:
            if self.deadline is not None:
                self.deadline.spend(max(used.cpu, used.own))
            if fault is not None:
                if _stopping.is_set():  # killed by the stop, not by its own fault
                    raise Stopped
                self._kill()
            return Answer(reply, used.cpu, used.wall, fault, used.waited, charged)

        try:
            process.stdin.write(request)
            process.stdin.flush()
        except OSError:
            return answer(contract.Reply(), spent(), self._ended())
        out = process.stdout.fileno()
        while b"\n" not in self.pending:
            used = spent()
            if over := self._over(used, limits):
                return answer(contract.Reply(), used, *over)
            # CPU and the agent's own time run no faster than the wall clock on each
            # core: look again at most when half of what is left of either could be used.
            pause = max(0.005, min((limits.cpu_seconds - used.cpu) / 2,
                                   self._own_limit(limits) - used.own,
                                   limits.backstop_seconds - used.wall))
            if select.select([out], [], [], pause)[0]:
                chunk = os.read(out, 65536)
                if not chunk:
                    return answer(contract.Reply(), spent(), self._ended())
                self.pending += chunk
                if len(self.pending) > protocol.MAX_LINE:
                    return answer(contract.Reply(), spent(),
                                  "sent a reply longer than the protocol allows")
        try:
            timed.freeze()  # its turn is over: nothing of it runs until the next request
        except cgroups.Stuck as exc:  # the busy machine's doing as likely as the agent's
            return answer(contract.Reply(), spent(),
                          f"could not be stopped after its reply ({exc}): not charged", False)
        line, _, self.pending = self.pending.partition(b"\n")
        used = spent()
        if over := self._over(used, limits):
            return answer(contract.Reply(), used, *over)
        try:
            return answer(contract.read_reply(line), used)
        except protocol.BadMessage as exc:
            return answer(contract.Reply(), used, f"sent a reply the referee can't read ({exc})")

    def _own_limit(self, limits: Limits) -> float:
        """The most of its own time a move may take: the wall limit, or what is left
        of the match's deadline where less."""
        left = self.deadline.left() if self.deadline is not None else limits.wall_seconds
        return min(limits.wall_seconds, left)

    def _over(self, used: Spent, limits: Limits) -> tuple[str, bool] | None:
        """Why the move ends now, and whether that is charged; None while it may go on."""
        if used.cpu > limits.cpu_seconds:
            return (f"ran out of time: {used.cpu:.2f} s of CPU time, the limit is "
                    f"{limits.cpu_seconds:g} s"), True
        if used.own > limits.wall_seconds:
            return (f"ran out of time: {used.own:.2f} s of its own on the wall clock (sleeping "
                    f"or blocking), the limit is {limits.wall_seconds:g} s ({_times(used)})"), True
        if self.deadline is not None and max(used.cpu, used.own) > self.deadline.left():
            return self.deadline.passed(), True
        if used.wall > limits.backstop_seconds:
            return (f"was stopped by the backstop, {used.wall:.1f} s on the wall clock, "
                    f"within its own limits ({_times(used)}): not charged"), False
        if self.printed > FLOOD:
            return f"printed more than {FLOOD >> 10} KiB in one game", True
        return None

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
            if self.clock is not None:
                self.clock.kill()  # the whole group: what left the session too
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            if self.clock is not None:
                self.clock.close()
            self.clock = None
            self.cleanup()

    def close(self) -> None:
        self._kill()
        self.process = None
        with _lock:
            _live.discard(self)
        if self.remove:
            shutil.rmtree(self.remove, ignore_errors=True)


def stop_all() -> None:
    """Close every live agent (its processes killed, frozen ones too, its group and
    container removed) and start none again: the command is ending."""
    with _lock:
        _stopping.set()
        agents = list(_live)
    for each in agents:
        with contextlib.suppress(Exception):  # one agent's trouble must not keep the rest
            each.close()


@contextlib.contextmanager
def stopping_on_signals() -> Iterator[None]:
    """Within it (in the main thread), SIGINT and SIGTERM close every live agent at
    once, then end the command (exit status 128 + the signal's number)."""

    def stop(number: int, frame: FrameType | None) -> None:
        stop_all()
        raise SystemExit(128 + number)

    before = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _times(used: Spent) -> str:
    waited = ("its wait for a CPU not known" if used.waited is None else
              f"{used.waited:.2f} s of it waiting for a CPU busy with others")
    return f"{used.wall:.2f} s in all, {waited}; {used.cpu:.2f} s of CPU time"


class InProcessAgent:
    """A trusted agent called in the referee's own process (baselines, benchmarks):
    its limits are only what its ``time_left`` tells it."""

    def __init__(self, name: str, cls: type) -> None:
        self.name, self.cls = name, cls
        self.agent: object = None
        self.variant = "knights"

    def new_game(self, variant: str, player: int, seed: int) -> Answer:
        random.seed(seed)  # as an agent's process does: the same seed, the same game
        self.variant, self.agent = variant, self.cls()
        return Answer(contract.Reply(), 0.0, 0.0)

    def move(self, state: QueenBoard, limits: Limits) -> Answer:
        cpu_start, wall_start = time.thread_time(), time.monotonic()
        time_left = contract.countdown(limits.cpu_seconds, time.thread_time)
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
