"""Warm judges: the one judge of every box on a host, started once and forked per run.

A run's own supervisor cost most of a small grading: a bubblewrap view, an
interpreter, pytest's and the suites' imports. A warm judge
(``harness/runtime/judge.py``) makes them once, and forks a child per run
(``grader.contracts.judge_socket``). The child is put in the run's control
group before it does anything, and has the run's workers started in their
box: a zygote of its own in the workers' narrower bubblewrap view (the local
sandbox), a container's launcher (Docker), or, unwrapped, its own children
(the local sandbox without bubblewrap, never as root).

A wrapped judge runs in a view like the supervisor's (unprivileged, no
network, the package and the exercises read-only, the folder of the runs'
control groups read-only), whose one writable folder, its home, holds its
runs' work folders; an unwrapped one has the same home, and no view. A judge
serves one run at a time, so that two runs at once never share one; as root,
it runs as the uid of a slot it holds for its life (``slots``), so two runs at
once never share a uid either. Idle judges are kept by the view they need (an
instructor's exercise or game adds folders to it), up to one per core, and
one is started ahead whenever a run takes the last idle one.
"""

import atexit
import compileall
import contextlib
import functools
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader import games
from grader.contracts import judge_socket, places
from grader.contracts.events import RESULTS_CAP
from grader.contracts.owntime import OwnClock
from grader.contracts.run import Run
from grader.exercises import Exercise, Limits
from grader.sandbox import bubblewrap, cgroups
from grader.sandbox.outcome import SandboxUnavailable, finished
from grader.sandbox.pipes import LOG_CAP, join_readers, read_capped
from grader.sandbox.staging import scrubbed_env
from grader.sandbox.timing import clock_of, wait

JUDGE = places.PACKAGE / "harness" / "runtime" / "judge.py"
START_SECONDS = 120  # a judge's imports and a run's fork, on a machine however busy
EXIT_SECONDS = 30  # a killed run's child reaped and said so
CREDENTIALS = struct.Struct("3i")  # SCM_CREDENTIALS: pid, uid, gid
HOME_PREFIX = "minimax-grader-judge-"  # then the host's pid: a dead host's are swept


@dataclass(frozen=True)
class Kind:
    """What a judge's view holds beyond the package and the exercises: an
    instructor's exercise folder (``--exercises DIR``) and game folder; and
    whether it has a view at all (``wrapped``: in bubblewrap)."""

    exercise: Path | None = None
    game: Path | None = None
    wrapped: bool = True


def kind_of(exercise: Exercise, wrapped: bool = True) -> Kind:
    """The judge's view an exercise needs: an instructor's exercise and game add theirs."""
    folder = Path(exercise.suite).parent
    return Kind(exercise=None if folder.is_relative_to(places.EXERCISES) else folder,
                game=games.added().get(exercise.game), wrapped=wrapped)


class JudgeLost(SandboxUnavailable):
    """A judge ended, or did not answer in time: the run is the grader's failure."""


@functools.cache
def compile_harness() -> None:
    """Compile the package's and the exercises' bytecode where it is missing or
    stale, once a process, as the grading image does at its build: the
    supervisor and the workers run with -B in read-only views, so without it
    each would compile every module it imports at every run (a machine with
    PYTHONDONTWRITEBYTECODE set never writes it). Where a folder can't be
    written (installed by another user), its installer compiled it."""
    for folder in (places.PACKAGE, places.EXERCISES):
        compileall.compile_dir(folder, quiet=2)


def sweep(prefix: str = HOME_PREFIX, where: Path | None = None) -> int:
    """Remove the folders named ``prefix`` + a host's pid that hosts no longer
    running left in ``where``, the temporary folder unless given (a host killed
    outright): judges' homes, or containers' launcher sockets' folders. How many."""
    removed = 0
    for folder in (where or Path(tempfile.gettempdir())).glob(f"{prefix}*-*"):
        owner = folder.name[len(prefix):].split("-", 1)[0]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def _groups_folder() -> Path | None:
    """Where the runs' v2 control groups lie, a run's own or its container's (their
    clocks are read there), or None where runs are not timed by a v2 group."""
    return None if cgroups.available() is not None else cgroups.v2_mount()


def _suites(kind: Kind) -> list[str]:
    """The suite folders whose imports a judge of ``kind`` makes ahead."""
    built_in = sorted(str(suite) for suite in places.EXERCISES.glob("*/suite"))
    return built_in + ([str(kind.exercise / "suite")] if kind.exercise else [])


class Judge:
    """One warm judge process, started in its view (see the module's text)."""

    def __init__(self, kind: Kind) -> None:
        compile_harness()  # its view is read-only: it would compile every module at its start
        self.kind = kind
        self.owner = os.getpid()  # a forked host (Celery's pool) starts its own
        self.slot = bubblewrap.outside_slot() if kind.wrapped else None
        self.uid = self.slot.uid if self.slot else None
        self.home = Path(tempfile.mkdtemp(prefix=f"{HOME_PREFIX}{self.owner}-"))
        if self.uid is not None:
            os.chown(self.home, self.uid, self.uid)
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.said = tempfile.TemporaryFile()  # its own output: why it failed to start
        argv = [os.path.abspath(sys.executable), "-I", "-B", str(JUDGE), str(theirs.fileno()),
                *_suites(kind)]
        command = bubblewrap.supervisor_command(
            self.home, self.uid, argv, exercise=kind.exercise, game=kind.game,
            clock=_groups_folder()) if kind.wrapped else argv
        with theirs:
            try:
                self.process = subprocess.Popen(
                    command, pass_fds=(theirs.fileno(),), cwd=self.home,
                    stdin=subprocess.DEVNULL, stdout=self.said, stderr=self.said,
                    start_new_session=True, env=scrubbed_env(self.home, kind.game))
            except BaseException:
                if self.slot:
                    self.slot.release()
                raise
        self.ready = False
        self.broken = False

    def wait_ready(self) -> None:
        """Wait for the judge's imports; JudgeLost (what it said) where it failed."""
        if not self.ready:
            self._receive(judge_socket.READY, START_SECONDS)
            self.ready = True

    def workspace(self) -> Path:
        """A new work folder for a run, in the judge's view, the judge's own."""
        work = Path(tempfile.mkdtemp(prefix="run-", dir=self.home))
        if self.uid is not None:
            os.chown(work, self.uid, self.uid)
        return work

    def run(self, job_file: Path, limits: Limits, cancel: threading.Event | None, *,
            wrap: list[str] | None = None, group: cgroups.Group | None = None,
            clock: OwnClock | None = None, launcher: tuple[int, str] | None = None) -> Run:
        """Run the job at ``job_file`` in a fork of the judge until it ends or passes
        the run's limit on ``clock`` (by default ``group``'s): its Run.

        Its workers are forked by a zygote of its own in the bubblewrap view
        ``wrap``, or by the child itself (an unwrapped judge's: no ``wrap``; in
        both the child is put in the run's control group ``group``), or by a
        container's launcher (``launcher``: a listening socket, the judge's
        after, and the token the launcher says first).
        """
        results, log = bytearray(), bytearray()
        readers = [self._reader(results, RESULTS_CAP), self._reader(log, LOG_CAP)]
        fds = [reader[1] for reader in readers] + ([launcher[0]] if launcher else [])
        self._send(judge_socket.request(str(job_file), wrap, launcher[1] if launcher else ""), fds)
        clock = clock or clock_of(group)
        ended: dict[str, Any] = {}
        child = None
        try:
            _, child = self._receive(judge_socket.STARTED, START_SECONDS)
            if group is not None and child is not None:
                group.add(child)
            self._send(judge_socket.encode(judge_socket.GO))
            timed = wait(lambda: self._ended(ended), self._pause, limits.total_seconds, clock,
                         cancel)
        finally:
            self._end(child, group, ended)
        join_readers(thread for thread, _ in readers)
        return finished("local", limits, results, log, timed, clock,
                        exit_code=ended.get("code"))

    def _reader(self, sink: bytearray, cap: int) -> tuple[threading.Thread, int]:
        """A thread that reads a new pipe into ``sink``, and the pipe's write end."""
        read, write = os.pipe()
        thread = threading.Thread(target=read_capped, args=(os.fdopen(read, "rb"), cap, sink),
                                  daemon=True)
        thread.start()
        return thread, write

    def _send(self, data: bytes, fds: list[int] | None = None) -> None:
        try:
            if fds:
                socket.send_fds(self.sock, [data], fds)
            else:
                self.sock.sendall(data)
        except OSError as exc:
            self.broken = True
            raise JudgeLost(f"the judge has ended: {self._output()}") from exc
        finally:
            for fd in fds or ():
                os.close(fd)

    def _receive(self, kind: str, seconds: float) -> tuple[dict[str, Any], int | None]:
        """The next message, of ``kind``, within ``seconds``, and its sender's pid."""
        if not select.select([self.sock], [], [], seconds)[0]:
            self.broken = True
            raise JudgeLost(f"the judge said no {kind} within {seconds:g} s: {self._output()}")
        data, ancillary, _, _ = self.sock.recvmsg(judge_socket.MESSAGE_CAP,
                                                  socket.CMSG_SPACE(CREDENTIALS.size))
        if not data:
            self.broken = True
            raise JudgeLost(f"the judge has ended: {self._output()}")
        try:
            return judge_socket.decode(data, kind), _sender(ancillary)
        except judge_socket.BadMessage as exc:
            self.broken = True
            raise JudgeLost(str(exc)) from None

    def _ended(self, ended: dict[str, Any]) -> bool:
        """Whether the run's child has ended (its code then in ``ended``)."""
        if "code" not in ended and select.select([self.sock], [], [], 0)[0]:
            ended["code"] = self._receive(judge_socket.EXIT, 0)[0].get("code")
        return "code" in ended

    def _pause(self, seconds: float) -> None:
        select.select([self.sock], [], [], seconds)

    def _end(self, child: int | None, group: cgroups.Group | None,
             ended: dict[str, Any]) -> None:
        """Kill the run's child (and everything in its group) unless it has ended,
        and wait until the judge says so; a judge that doesn't is not used again."""
        if "code" in ended or self.broken:
            return
        if group is not None:
            group.kill()
        if child is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)  # not reaped yet: never another's pid
        deadline = time.monotonic() + EXIT_SECONDS
        with contextlib.suppress(JudgeLost):
            while not self._ended(ended) and time.monotonic() < deadline:
                self._pause(min(1.0, max(0.0, deadline - time.monotonic())))
        self.broken = self.broken or "code" not in ended

    def _output(self) -> str:
        self.said.seek(0)
        return self.said.read(4000).decode("utf-8", "replace").strip() or "(it said nothing)"

    def usable(self) -> bool:
        return self.ready and not self.broken and self.process.poll() is None

    def close(self) -> None:
        """End the judge (it ends when the host hangs up) and remove its home."""
        if self.owner != os.getpid():
            return  # the parent's: only forgotten here
        self.sock.close()
        try:
            self.process.wait(timeout=EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.said.close()
        shutil.rmtree(self.home, ignore_errors=True)
        if self.slot:  # its processes have ended: the uid is free for another run
            self.slot.release()


def _sender(ancillary: list[tuple[int, int, bytes]]) -> int | None:
    """The sending process's pid, as the kernel named it in this process's namespace."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            return int(CREDENTIALS.unpack(data[:CREDENTIALS.size])[0])
    return None


class Pool:
    """The idle judges of this process, by kind."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: dict[Kind, list[Judge]] = {}
        self.starting: dict[Kind, int] = {}
        # Judges are started from one long-lived thread: bubblewrap ends its
        # view when the thread that started it ends (--die-with-parent).
        self.starter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judges")
        self.keep = os.cpu_count() or 2
        self.swept = False

    @contextlib.contextmanager
    def lent(self, kind: Kind) -> Iterator[Judge]:
        """An idle judge of ``kind``, or a new one, for one run; kept after when usable."""
        judge = self._take(kind)
        if judge is None:
            judge = self._start(kind)
        try:
            judge.wait_ready()
            yield judge
        finally:
            self._give_back(judge)

    def _take(self, kind: Kind) -> Judge | None:
        """An idle usable judge of ``kind``, or None. Where a run takes the last one,
        another is started for the next (a single grading starts none ahead)."""
        stale = []
        with self.lock:
            idle = self.idle.setdefault(kind, [])
            found = None
            while idle and found is None:
                judge = idle.pop()
                if judge.usable():
                    found = judge
                else:
                    stale.append(judge)
            ahead = found is not None and not idle and not self.starting.get(kind)
            if ahead:
                self.starting[kind] = 1
        for judge in stale:
            judge.close()
        if ahead:
            threading.Thread(target=self._ahead, args=(kind,), daemon=True).start()
        return found

    def prepare(self, kind: Kind) -> None:
        """Start a judge of ``kind`` in the background, unless one is idle or starting."""
        with self.lock:
            ahead = not self.idle.get(kind) and not self.starting.get(kind)
            if ahead:
                self.starting[kind] = 1
        if ahead:
            threading.Thread(target=self._ahead, args=(kind,), daemon=True).start()

    def _ahead(self, kind: Kind) -> None:
        try:
            judge = self._start(kind)
            with contextlib.suppress(JudgeLost):  # said at the next run's own start
                judge.wait_ready()
            self._give_back(judge)
        finally:
            with self.lock:
                self.starting[kind] = 0

    def _start(self, kind: Kind) -> Judge:
        if not self.swept:  # once a process, before its first judge
            self.swept = True
            sweep()
        return self.starter.submit(Judge, kind).result()

    def _give_back(self, judge: Judge) -> None:
        with self.lock:
            idle = self.idle.setdefault(judge.kind, [])
            kept = judge.usable() and len(idle) < self.keep
            if kept:
                idle.append(judge)
        if not kept:
            judge.close()

    def close(self) -> None:
        with self.lock:
            judges = [judge for idle in self.idle.values() for judge in idle]
            self.idle.clear()
        for judge in judges:
            judge.close()


POOL = Pool()


def _forked() -> None:
    """A forked host starts judges of its own: its parent's are left to it."""
    global POOL
    POOL = Pool()


os.register_at_fork(after_in_child=_forked)
atexit.register(lambda: POOL.close())
