"""The supervisor's handle on the student's worker process.

Calls go to the worker as steps, many in one request (see ``Student.run``),
and every step runs under its own deadline, on the run's own clock (the CPU
and the wall time less the wait for a CPU: ``owntime``); a worker that misses
it is killed (its whole process group) and restarted on the next request. The student's
output is read by a thread and capped, so a flood can neither block the
worker nor fill the supervisor's memory.
"""

import collections
import importlib.util
import os
import re
import select
import signal
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from grader.contracts import protocol
from grader.contracts.owntime import Deadline, Overloaded, OwnClock
from grader.harness.checking.boards import grid
from grader.harness.runtime import standins
from grader.harness.runtime.faults import (
    INTERFERED_AT_IMPORT,
    CallTimeout,
    ChangedGrader,
    ImportFailed,
    Missing,
    NotAState,
    OutOfTurn,
    Raised,
    StudentFault,
    TooManyCalls,
    WorkerDied,
    import_failure,
    missing_text,
)
from grader.harness.runtime.names import (
    Lesson,
    nearest,
    self_import_text,
    self_imports,
)
from grader.harness.runtime.spawn import (
    BrokerSpawner,
    LocalSpawner,
    Spawned,
    SpawnFailed,
    worker_args,
)
from grader.harness.runtime.steps import (
    Reply,
    Step,
    Target,
    call_step,
    call_text,
    grant,
    is_position,
    returned,
    step_doing,
    strings,
)

START_SECONDS = 10  # importing the student's files
# How often a wait looks at the run's clocks: the CPU of a group of several
# processes may run faster than the wall clock.
POLL_SECONDS = 0.25
REACHED = ("For your instructor: this submission reached into the grader's own code or "
           "objects while it was tested; the tests where it did fail")
OUT_OF_TURN_NOTE = ("For your instructor: this submission called the grader's stand-in for "
                    "another of its functions on positions that don't follow from the one the "
                    "function was given; those answers were not counted")
MAX_TESTED = 50_000  # positions one call may test (the 4 x 3 board has 16,269)
# Distinct tally lines one call may send: each position tested, and entered
# (a stand-in of the search is entered only where it then tests the end).
MAX_TALLIES = 2 * MAX_TESTED
MAX_TRACED = 20_000  # tally lines a traced step keeps in order (a failing case is small)
# A line that is no tally (a reply, an alarm): neither "t <label>" nor "e <label>", found
# with the newline before it (a search for a newline runs in C; one for a line's start,
# "^", steps through every byte of the millions of tally lines a search may send).
OTHER_LINE = re.compile(b"\n(?!" + re.escape(protocol.TESTED) + b"|" + re.escape(protocol.ENTERED)
                        + b")[^\n]*")

class Tallies(bytes):
    """A run of tally lines as the worker sent them, between two other lines."""


_SOURCES: dict[str, str] = {}


def _source(module: str) -> str:
    """A trusted game module's source, to send to the worker (whose user can't read it)."""
    if module not in _SOURCES:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, module
        _SOURCES[module] = Path(spec.origin).read_text(encoding="utf-8")
    return _SOURCES[module]


def _game(name: str) -> Any:
    """The trusted game ``name`` (``grader.games``), for its ``descends``."""
    return importlib.import_module(f"grader.games.{name}")


def _decoded(labels: collections.Counter[bytes]) -> list[str]:
    """The labels as text, in order, decoded at once (a newline ends any
    character, so each decodes as it would alone)."""
    return b"\n".join(labels).decode("utf-8", "replace").split("\n") if labels else []


class OutputTap:
    """Keeps the first ``cap`` bytes of a stream and counts the rest."""

    def __init__(self, stream: BinaryIO, cap: int) -> None:
        self.cap = cap
        self.kept = bytearray()
        self.total = 0
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream: BinaryIO) -> None:
        while chunk := stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536):
            self.total += len(chunk)
            room = self.cap - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]


class Student:
    """Calls into the student's modules, one worker process at a time."""

    # Set for each worker (``_spawn``): what it sent, and what it tallied.
    pending: bytearray
    lines: collections.deque[bytearray | Tallies]
    ids: dict[int, int]
    # The step's tally lines, whole: counted in C as they come (a search may
    # send millions), sorted by kind once the step has answered.
    tallies: collections.Counter[bytes]
    tested_lines: int  # how many of them are counted calls (``most``)
    counted: collections.Counter[bytes]  # the labels the step's counted stand-ins were called on
    entered: collections.Counter[bytes]  # where the step's stand-ins of the search were entered
    alarms: list[str]
    tracing: bool  # whether the step answering keeps its tallies in order ...
    sequence: list[bytes]  # ... here (``_trace``)

    def __init__(self, submission: str | Path, modules: Iterable[str], provided: str | Path,
                 output_cap: int = 65536,
                 spawner: LocalSpawner | BrokerSpawner | None = None,
                 game: str = "isolation", clock: OwnClock | None = None,
                 provides: Iterable[str] = (), worker_folders: Sequence[str] = ()) -> None:
        self.submission = str(submission)
        # The submission and provided folders as the worker sees them (a judge
        # outside the container reads its own copies of them).
        self.worker_folders = ((worker_folders[0], worker_folders[1]) if worker_folders
                               else (self.submission, str(provided)))
        self.clock = clock or OwnClock()
        self.game = game  # the kit of stand-ins the worker loads (``standins``)
        self.provided = str(provided)
        self.modules = list(modules)
        self.output_cap = output_cap
        self.spawner = spawner or LocalSpawner()
        self.worker: Spawned | None = None
        self.taps: list[OutputTap] = []
        self.import_failure: dict[str, Any] | None = None
        self.restarts = 0
        # kept object's handle -> which call made it, for messages
        self.origins: dict[int, str] = {}
        self.reached: set[str] = set()  # what of the grader's the student's code reached into
        self.out_of_turn = False  # a stand-in was entered where no search of the call goes
        self.granted: frozenset[str] = frozenset()  # the running worker's stand-ins
        self.self_imports = self_imports(self.submission, self.modules)
        # the names the run's files define, for "did you mean": the provided
        # modules the exercise names, and any other the folder holds
        self.lesson = Lesson(self.submission, self.modules, self.provided,
                             [*provides, *self.provided_modules()])

    def provided_modules(self) -> list[str]:
        try:
            return sorted(Path(p).stem for p in os.listdir(self.provided) if p.endswith(".py")
                          and not p.startswith("_"))
        except OSError:
            return []

    def notes(self) -> list[str]:
        """What the grader saw in the student's files that a test can't show."""
        notes = [self_import_text(name, line, self.provided_modules())
                 for name, line in self.self_imports.items()]
        if self.reached:
            notes.append(f"{REACHED} ({', '.join(sorted(self.reached)[:5])}).")
        if self.out_of_turn:
            notes.append(f"{OUT_OF_TURN_NOTE}.")
        return notes

    # -- the worker's life -------------------------------------------------

    def _spawn(self, granted: frozenset[str]) -> None:
        try:
            args, cwd = worker_args(*self.worker_folders, self.game, self.modules)
            self.worker = self.spawner.spawn(args, cwd=cwd)
        except SpawnFailed as exc:
            raise WorkerDied(str(exc)) from None
        os.set_blocking(self.worker.requests.fileno(), False)  # see _send
        self.pending = bytearray()
        self.lines = collections.deque()
        self.origins = {}
        self.ids = {}  # kept object's handle -> its id in the worker
        self._new_step()
        self.taps.append(OutputTap(self.worker.output, self.output_cap))
        self.granted = granted
        needed = standins.kit(self.game).sources(granted)
        self._send({"grant": sorted(granted), "sources": {name: _source(name) for name in needed}},
                   self.clock.deadline(START_SECONDS), "importing your files")

    def start(self, granted: frozenset[str] = frozenset()) -> None:
        """Start the worker unless one with the same grant runs (another is
        stopped first); raise ImportFailed if the files don't import."""
        if self.import_failure:
            raise ImportFailed(self.import_failure)
        if self.worker and self.granted == granted:
            return
        self.stop()
        self._spawn(granted)
        try:
            hello = self._receive(self.clock.deadline(START_SECONDS), "importing your files")
        except (CallTimeout, WorkerDied) as exc:  # no use trying again in the next test
            hello = {"import_failed": {"kind": "stopped", "message": str(exc)}}
        self.reached.update(self.alarms)
        if type(hello) is not dict:
            hello = {"import_failed": {"kind": "stopped", "message": INTERFERED_AT_IMPORT}}
        if "import_failed" in hello:
            self.import_failure = import_failure(hello["import_failed"])
            self.import_failure["meant"] = self.lesson.meant(self.import_failure["type"],
                                                             self.import_failure["message"])
            self.stop()
            raise ImportFailed(self.import_failure)

    def stop(self) -> int | None:
        """Kill the worker, if one runs; the exit code, if it is known."""
        if not self.worker:
            return None
        worker, self.worker = self.worker, None
        self.spawner.kill(worker.pid)
        code = self.spawner.wait(worker.pid)
        worker.requests.close()
        os.close(worker.answers)
        return code

    # -- calls ---------------------------------------------------------------

    def run(self, chains: list[list[Step]], deadline: Callable[[], Deadline]
            ) -> list[tuple[list[Reply], StudentFault | None]]:
        """Run chains of steps in one request: for each chain, the replies of the
        steps that answered and the fault that stopped it (or None).

        The worker answers step by step, each step under its own deadline:
        ``deadline()`` taken as the step before answered (for the first, before
        the worker starts, as for a lone call). A step that raises ends its
        chain, and so does a call on an object that lacks the method; any other
        fault ends the request and stands for every chain left.
        """
        outcomes: list[tuple[list[Reply], StudentFault | None]] = []
        due = deadline()
        try:
            self.start(grant(chains))
            self._send({"op": "run", "chains": chains}, due, step_doing(chains[0][0]))
            for chain in chains:
                replies: list[Reply]
                fault: StudentFault | None
                replies, fault = [], None
                for step in chain:
                    try:
                        replies.append(self._answer(step, due, chain, replies))
                    except (Raised, Missing) as stopped:
                        fault = stopped
                    due = deadline()
                    if fault:
                        break
                outcomes.append((replies, fault))
        except StudentFault as fault:
            outcomes += [([], fault)] * (len(chains) - len(outcomes))
        return outcomes

    def call(self, target: Target, name: str, *args: object, deadline: Deadline,
             count_in: str | None = None, keep: bool = False) -> Reply:
        """One call, alone in its request: its reply, or raise its fault."""
        [(replies, fault)] = self.run(
            [[call_step(target, name, *args, count_in=count_in, keep=keep)]], lambda: deadline)
        if fault:
            raise fault
        return replies[0]

    def _send(self, message: dict[str, object], due: Deadline, doing: str) -> None:
        """Write a request, by the deadline of its first step."""
        assert self.worker is not None  # started (``start``)
        data = memoryview(protocol.dumps(message))
        fd = self.worker.requests.fileno()
        while data:
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                self._wait(due, doing, write=[fd])
            except BrokenPipeError:
                self._died(doing)

    def _answer(self, step: Step, due: Deadline, chain: list[Step], replies: list[Reply]
                ) -> Reply:
        """The worker's reply to ``step``, with what was tallied while it ran
        (``calls``: the positions tested, ``entered``), or raise the fault it
        reports. Nothing in the reply is trusted to have its keys or types."""
        doing = step_doing(step)
        self._new_step()
        self.tracing = bool(step.get("trace"))
        try:
            reply = self._receive(due, doing, step.get("most"))
        except CallTimeout:
            raise self._late(step) from None
        self._sort_tallies()
        self._believable(reply, doing)
        name = step.get("name")
        if "missing" in reply:
            missing = str(reply["missing"])[:protocol.MAX_TEXT]
            origin = self._origin(step, chain, replies, reply, doing)
            raise (NotAState if origin else Missing)(
                missing_text(missing, reply.get("on"), origin,
                              None if origin else self._meant_function(step, missing)))
        if "raised" in reply:
            maker = step.get("make") if reply.get("making") is True else None
            raise self._raised(maker or name or "your code", reply["raised"])
        if "bad_request" in reply:
            self._interfered(doing, f"the worker refused a request: {reply['bad_request']!r:.200}")
        if step["op"] == "call":
            try:
                reply["value"] = protocol.decode(reply.get("value"))
                reply["read"] = self._read(step, reply.get("read"))
            except protocol.BadMessage as exc:
                self._interfered(doing, f"an unreadable answer from {name}: {exc}")
            self._check_identity(step, reply, replies, doing)
            self._check_turns(step)
            reply["calls"], reply["entered"] = self._tested(), self.entered.total()
            if step.get("trace"):
                reply["trace"] = self._trace()
            if "handle" in reply:
                self.origins[reply["handle"]] = returned(step, reply["value"])
        elif not strings(reply.get("value")):
            self._interfered(doing, "an answer of the wrong kind while inspecting states")
        return reply

    def _new_step(self) -> None:
        """Nothing tallied yet, for the step about to answer."""
        self.tallies, self.tested_lines, self.alarms = collections.Counter(), 0, []
        self.counted, self.entered = collections.Counter(), collections.Counter()
        self.sequence, self.tracing = [], False

    def _trace(self) -> list[tuple[str, str]]:
        """A traced step's tally lines in the order they came: (kind, label),
        the kind "t" for a counted call and "e" for a stand-in entered."""
        lines = b"\n".join(self.sequence).decode("utf-8", "replace").split("\n") \
            if self.sequence else []
        return [(line[:1], line[2:]) for line in lines]

    def _sort_tallies(self) -> None:
        """The step's tally lines by kind, as labels: ``counted``, ``entered``."""
        for line, count in self.tallies.items():  # each begins with one or the other
            if line.startswith(protocol.ENTERED):
                self.entered[line[len(protocol.ENTERED):]] = count
            else:
                self.counted[line[len(protocol.TESTED):]] = count

    def _late(self, step: Step) -> CallTimeout:
        """Where a call ran out of time: the call as written, with its depth,
        and the position it was given, drawn (and as a grid, where it is one)."""
        if step["op"] != "call":
            return CallTimeout("time limit reached while inspecting states")
        # the position is an argument (a GameState), or set on the object called
        # (the lab's Game, its current_state)
        given = [*step["args"], *step.get("setup", {}).values()]
        drawn = [board for arg in given if type(arg) is dict
                 and is_position(arg.get("trusted")) for board in self._drawn(arg["trusted"])]
        late = CallTimeout(f"time limit reached while running {call_text(step)}" + "".join(
            f" on this position:\n\n{board}\n" for board in drawn[:1]))
        late.board = grid(drawn[0]) if drawn else None
        return late

    def _drawn(self, data: object) -> list[str]:
        """The position ``data`` drawn by the run's game (sent as its state
        where the game has no ``from_data``); none where the game draws
        nothing or ``data`` is not one of its positions (a drawn tree, sent
        in an isolation run too)."""
        game = _game(self.game)
        if not hasattr(game, "draw"):
            return []
        try:
            return [game.draw(game.from_data(data) if hasattr(game, "from_data") else data)]
        except (KeyError, TypeError, IndexError, ValueError, AttributeError):
            return []

    @staticmethod
    def _read(step: Step, values: object) -> list[object]:
        """The attributes a call step asked to read, decoded."""
        if not step["read"]:
            return []
        if type(values) is not list or len(values) != len(step["read"]):
            raise protocol.BadMessage("not one value per attribute read")
        return [protocol.decode(value) for value in values]

    def _check_turns(self, step: Step) -> None:
        """The stand-ins of the search were entered only on positions that
        follow from the call's root (see ``OutOfTurn``)."""
        root = step.get("root")
        if root is None or not self.entered:
            return
        descends = _game(self.game).descends
        if not all(descends(root, label) for label in _decoded(self.entered)):
            self.out_of_turn = True
            fault = OutOfTurn(step["name"], step["trusted"])
            fault.trace = self._trace()
            raise fault

    def _tested(self) -> protocol.Tested:
        """What the step's counted stand-ins were called on: labels, with how often."""
        labels = _decoded(self.counted)
        tested = protocol.Tested(dict(zip(labels, self.counted.values(), strict=True)))
        if len(tested) < len(labels):  # labels alike once decoded: their counts add up
            tested = protocol.Tested()
            for label, count in zip(labels, self.counted.values(), strict=True):
                tested[label] += count
        return tested

    def _believable(self, reply: Reply, doing: str) -> None:
        """Refuse a step during which the student's code reached into the grader:
        the guard refused it something, or a namespace of the grader's changed."""
        changed = reply.get("changed")
        what = self.alarms + ([str(c)[:100] for c in changed[:5]] if type(changed) is list
                              else [] if changed is None else ["the grader's namespaces"])
        if what:
            self._reached(what, doing)

    def _check_identity(self, step: Step, reply: Reply, replies: list[Reply], doing: str
                        ) -> None:
        """The object called on is the one the grader kept (by the id the worker
        gave when it was made), and the reply's ids are numbers."""
        on, made, handle = reply.get("on"), reply.get("id"), reply.get("handle", 0)
        if type(on) is not int or type(made) is not int or type(handle) is not int:
            self._interfered(doing, "a reply without the ids of its objects")
        kind, where = step["target"]
        known = replies[where].get("id") if kind == "step" else \
            self.ids.get(where) if kind == "handle" else None
        if known is not None and on != known:
            self._reached(["an object the grader kept was swapped for another"], doing)
        if handle:
            self.ids[handle] = made

    def _reached(self, what: list[str], doing: str) -> NoReturn:
        """Fail the step: the student's code reached into the grader (``what``)."""
        self.reached.update(what)
        self.stop()  # what else the worker answers can't be believed either
        raise ChangedGrader(", ".join(dict.fromkeys(what)), doing)

    def _origin(self, step: Step, chain: list[Step], replies: list[Reply], reply: Reply,
                doing: str) -> str | None:
        """Which call made the object a step was called on, as the student wrote it."""
        if step.get("make") and "made" in reply:  # made in the step, as the reply shows it
            try:
                made = protocol.decode(reply["made"])
            except protocol.BadMessage as exc:
                self._interfered(doing, f"an unreadable answer from {step['make']}: {exc}")
            return returned({"name": step["make"]}, made)
        if step["op"] != "call":  # an inspection: no worker says its objects lack a method
            return None
        kind, where = step["target"]
        if kind == "step" and where < len(replies) and chain[where]["op"] == "call":
            return returned(chain[where], replies[where]["value"])
        return self.origins.get(where) if kind == "handle" else None

    def _meant_function(self, step: Step, missing: str) -> str | None:
        """What the student's files define under a name close to the one a step
        called: in the module called, or in the classes of the student's modules."""
        kind, where = step["target"] if step["op"] == "call" else ("", "")
        if kind == "module" and not step.get("make"):
            return self.lesson.missing(str(where), missing)
        return nearest(missing, [name for module in self.modules
                                 for name in self.lesson.names_in(module, functions=True)])

    def _raised(self, name: str, raised: object) -> Raised:
        data = raised if type(raised) is dict else {}
        fault = Raised(name, raised, self.lesson.meant(
            str(data.get("type", "")), " ".join(str(data.get("message", "")).split())))
        fault.calls, fault.entered = self._tested(), self.entered.total()
        fault.trace = self._trace()
        if fault.raised["type"] == "NameError" and self.self_imports:
            fault.args = (f"{fault}\n{' '.join(self.notes())}",)
        return fault

    def _wait(self, due: Deadline, doing: str, read: Sequence[int] = (),
              write: Sequence[int] = ()) -> None:
        """Wait until a pipe is ready; a worker that is not by ``due`` is stopped
        (and so is one the machine starved: ``Overloaded``, the run's end). A pipe
        ready at once is taken without reading the clocks: a search's tallies come
        in many chunks, each of which would cost two reads of the group's files."""
        if any(select.select(read, write, [], 0)[:2]):
            return
        while not any(select.select(read, write, [], min(self.clock.left(due), POLL_SECONDS))[:2]):
            try:
                over = self.clock.over(due, self._waited)
            except Overloaded:
                self.stop()
                raise
            if over:
                self.stop()
                self.restarts += 1
                raise CallTimeout(f"time limit reached while {doing}")

    def _waited(self) -> float | None:
        """The run-queue wait of the worker's thread that runs the calls."""
        return self.spawner.waited(self.worker.pid) if self.worker else None

    def _line(self, due: Deadline, doing: str) -> bytearray | Tallies:
        """The worker's next line, waiting until ``due`` at most; a run of
        tally lines comes as one ``Tallies`` (a search may send millions)."""
        while not self.lines:
            assert self.worker is not None  # started (``start``)
            self._wait(due, doing, read=[self.worker.answers])
            chunk = os.read(self.worker.answers, 65536)
            if not chunk:
                self._died(doing)
            self.pending += chunk
            if b"\n" in chunk:
                end = self.pending.rfind(b"\n") + 1
                self._queue(bytes(self.pending[:end]))
                del self.pending[:end]
            if len(self.pending) > protocol.MAX_LINE:
                self._interfered(doing, "an answer too large")
        return self.lines.popleft()

    def _queue(self, text: bytes) -> None:
        """Queue whole lines in order, each run of tallies as one ``Tallies``
        (found by a regular expression: the other lines are few)."""
        text = b"\n" + text  # every line follows a newline, the first too
        start = 1  # where the lines not yet queued begin
        for other in OTHER_LINE.finditer(text, 0, len(text) - 1):  # text ends with a newline
            if start < other.start():
                self.lines.append(Tallies(text[start:other.start()]))
            self.lines.append(bytearray(text[other.start() + 1:other.end()]))
            start = other.end() + 1
        if start < len(text):
            self.lines.append(Tallies(text[start:-1]))

    def _receive(self, due: Deadline, doing: str, most: int | None = None) -> dict[str, Any]:
        """The worker's next answer (a JSON object), tallying the lines that came
        before it: the grader's counted stand-ins called, its stand-ins entered,
        the guard's refusals; stopped once more than ``most`` calls are counted."""
        while True:
            line = self._line(due, doing)
            if isinstance(line, Tallies):
                self.tallies.update(line.split(b"\n"))
                if self.tracing and len(self.sequence) < MAX_TRACED:
                    self.sequence += line.split(b"\n")[:MAX_TRACED - len(self.sequence)]
                self.tested_lines += line.count(b"\n" + protocol.TESTED) + line.startswith(
                    protocol.TESTED)
                if len(self.tallies) > MAX_TALLIES:
                    self._interfered(doing, "more positions tested than the game has")
                if most is not None and self.tested_lines > most:
                    self.stop()
                    stopped = TooManyCalls(f"stopped while {doing}: more than {most:,} counted "
                                           "calls, far more than the reference makes there")
                    stopped.trace = self._trace()
                    raise stopped
            elif line.startswith(protocol.ALARM):
                self.alarms.append(line[len(protocol.ALARM):].decode("utf-8", "replace")[:200])
            else:
                try:
                    return protocol.loads(line)
                except protocol.BadMessage as exc:
                    self._interfered(doing, str(exc))

    def _interfered(self, doing: str, what: str) -> NoReturn:
        """The worker sent what the protocol does not allow: the student's code
        wrote to the grader's channel, or sent what no answer is."""
        self.stop()
        raise WorkerDied(f"your code interfered with the grader's channel while {doing}: "
                         f"{what}")

    def _died(self, doing: str) -> NoReturn:
        code = self.stop()
        self.restarts += 1
        if code is None:
            how = "ended its process"
        elif code < 0:
            how = f"crashed: its process was killed by signal {signal.Signals(-code).name}"
            if -code == signal.SIGKILL:
                how += " (often: out of memory)"
        else:
            how = f"ended its process with exit code {code}"
        raise WorkerDied(f"your code {how} while {doing}")

    # -- output ----------------------------------------------------------------

    def output(self) -> dict[str, object]:
        """What the student's code printed, capped, with the total size."""
        for tap in self.taps:
            tap.thread.join(timeout=1)
        kept = b"".join(bytes(tap.kept) for tap in self.taps)[: self.output_cap]
        total = sum(tap.total for tap in self.taps)
        return {"text": kept.decode("utf-8", "replace"), "bytes": total,
                "truncated": total > len(kept)}
