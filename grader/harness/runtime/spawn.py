"""Starting, killing and reaping the student's worker process.

A worker is forked from a zygote, a process that imported the worker's
modules ahead and runs no code of the student's (``zygote``): in the Docker
sandbox the container's launcher, which the supervisor, another user, asks
over a socket (``BrokerSpawner``) and which hands back the worker's pipes as
file descriptors; in the local sandbox a zygote of the run's own, the first
process of a bubblewrap view that the supervisor starts (``start_zygote``)
and asks the same way. The bare local sandbox, no boundary, starts a new
interpreter for each worker (``LocalSpawner``).
"""

import contextlib
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from grader.contracts.owntime import thread_wait

WORKER = Path(__file__).resolve().parent / "worker.py"
ZYGOTE = Path(__file__).resolve().parent / "zygote.py"
ZYGOTE_END_SECONDS = 5  # for a zygote to end once its supervisor has hung up


@dataclass
class Spawned:
    pid: int
    requests: BinaryIO  # a binary file the supervisor writes requests to
    answers: int  # the fd answers are read from
    output: BinaryIO  # a binary file carrying the worker's stdout and stderr


class SpawnFailed(OSError):
    """The worker could not be started (too many processes, say)."""


class Process(Protocol):
    """A started worker, as its spawner keeps it: a ``Popen`` or a fork."""

    pid: int

    def wait(self) -> int: ...


def set_dumpable(dumpable: bool) -> None:
    """Make this process's /proc entries (its pipes and memory among them)
    reachable, or not, for other processes of its user: the student's."""
    pr_set_dumpable = 4
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_dumpable, int(dumpable), 0, 0, 0)


def worker_args(submission: str, provided: str, game: str, modules: Sequence[str]
                ) -> tuple[list[str], str]:
    """A worker's arguments (see ``worker.py``) and its working folder."""
    return [submission, provided, game, *modules], submission


def worker_command(rpc_in: int, rpc_out: int, args: Sequence[str]) -> list[str]:
    return [sys.executable, "-I", "-B", "-u", str(WORKER), str(rpc_in), str(rpc_out), *args]


class LocalSpawner:
    """Starts workers as children of this process (as ``user``, when given).

    Where a kill is known to leave no process of the student's alive (see
    ``_end``), it starts the next worker at once, with the same arguments:
    its interpreter starts while the supervisor judges, and it waits for its
    grant, the student's files not yet imported. No code of the student's
    runs while it waits, so none can reach it; each worker is still used
    once. Once the suite has ended (``finish``) none is started.
    """

    def __init__(self, user: int | None = None, env: dict[str, str] | None = None) -> None:
        self.user = user
        self.env = env
        self.processes: dict[int, Process] = {}
        self.last: tuple[tuple[str, ...], str] | None = None  # the last start's arguments
        self.spare: tuple[tuple[tuple[str, ...], str], int, tuple[int, int, int]] | None = None

    def start(self, args: Sequence[str], cwd: str) -> tuple[int, tuple[int, int, int]]:
        """The worker's pid and the three fds of its side of the pipes, kept open:
        the spare, where one was started with these arguments."""
        self.last = (tuple(args), cwd)
        spare, self.spare = self.spare, None
        if spare and spare[0] == self.last:
            return spare[1], spare[2]
        if spare:
            self._discard(*spare[1:])
        return self._start(args, cwd)

    def finish(self) -> None:
        """No more workers are wanted: none is started ahead, and a waiting one ends."""
        self.last = None
        spare, self.spare = self.spare, None
        if spare:
            self._discard(*spare[1:])

    def _discard(self, pid: int, fds: tuple[int, int, int]) -> None:
        self._end(pid)
        self.wait(pid)
        for fd in fds:
            os.close(fd)

    def _start(self, args: Sequence[str], cwd: str) -> tuple[int, tuple[int, int, int]]:
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        out_r, out_w = os.pipe()
        try:
            process = self._launch(args, cwd, (to_r, from_w, out_w))
        except OSError as exc:
            for fd in (to_w, from_r, out_r):
                os.close(fd)
            raise SpawnFailed(f"could not start your code: {exc.strerror or exc}") from None
        finally:
            for fd in (to_r, from_w, out_w):
                os.close(fd)
        self.processes[process.pid] = process
        return process.pid, (to_w, from_r, out_r)

    def _launch(self, args: Sequence[str], cwd: str, fds: tuple[int, int, int]) -> Process:
        """Start the worker on its side of the pipes: requests, answers, output."""
        requests, answers, output = fds
        return subprocess.Popen(worker_command(requests, answers, args),
                                pass_fds=(requests, answers), stdin=subprocess.DEVNULL,
                                stdout=output, stderr=output, cwd=cwd, start_new_session=True,
                                env=self.env, user=self.user, group=self.user,
                                extra_groups=[] if self.user is not None else None)

    def spawn(self, args: Sequence[str], cwd: str) -> Spawned:
        pid, (to_w, from_r, out_r) = self.start(args, cwd)
        return Spawned(pid, os.fdopen(to_w, "wb"), from_r, os.fdopen(out_r, "rb"))

    def kill(self, pid: int) -> None:
        """End the worker, and start the next where nothing of the student's is left."""
        if self._end(pid) and self.last:
            self.prepare(*self.last)

    def prepare(self, args: Sequence[str], cwd: str) -> None:
        """Start a worker ahead of its request, for these arguments; only while
        no process of the student's runs (before the first, or at a clean kill)."""
        if not self.spare:
            self.last = (tuple(args), cwd)
            try:
                self.spare = (self.last, *self._start(args, cwd))
            except SpawnFailed:  # the next start will say why
                pass

    def _end(self, pid: int) -> bool:
        """Kill the worker: whether no process of the student's is left (here
        unknown: one that left the worker's group lives on)."""
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return False

    def wait(self, pid: int) -> int | None:
        process = self.processes.pop(pid, None)
        return process.wait() if process else None

    def waited(self, pid: int) -> float | None:
        """The run-queue wait of the worker's main thread, which runs the student's
        calls (``owntime.thread_wait``); None where it doesn't count."""
        return thread_wait(pid) if pid in self.processes else None


class BrokerSpawner:
    """Asks a zygote, over a SOCK_SEQPACKET socket, to start and end workers.

    A zygote that has ended (its view failed to start, its memory ran out)
    makes every start fail with ``SpawnFailed``; its workers ended with it.
    """

    def __init__(self, fd: int, process: subprocess.Popen[bytes] | None = None) -> None:
        self.socket = socket.socket(fileno=fd)
        self.process = process  # the zygote, where this process started it

    def _ask(self, message: dict[str, object], fds: int = 0) -> tuple[dict[str, Any], list[int]]:
        try:
            self.socket.sendall(json.dumps(message).encode())
            data, received, _, _ = socket.recv_fds(self.socket, 65536, fds)
        except OSError:
            data, received = b"", []
        if not data:
            raise SpawnFailed("the sandbox's process that starts your code has ended")
        return json.loads(data), received

    def spawn(self, args: Sequence[str], cwd: str) -> Spawned:
        reply, fds = self._ask({"op": "spawn", "args": args, "cwd": cwd}, fds=3)
        if "error" in reply:
            raise SpawnFailed(reply["error"])
        to_w, from_r, out_r = fds
        return Spawned(reply["pid"], os.fdopen(to_w, "wb"), from_r, os.fdopen(out_r, "rb"))

    def kill(self, pid: int) -> None:
        with contextlib.suppress(SpawnFailed):  # an ended zygote took its workers along
            self._ask({"op": "kill", "pid": pid})

    def finish(self) -> None:
        with contextlib.suppress(SpawnFailed):
            self._ask({"op": "finish"})

    def wait(self, pid: int) -> Any:
        try:
            return self._ask({"op": "wait", "pid": pid})[0]["code"]
        except SpawnFailed:
            return None

    def waited(self, pid: int) -> float | None:
        try:
            waited = self._ask({"op": "waited", "pid": pid})[0].get("waited")
        except SpawnFailed:
            return None
        return float(waited) if isinstance(waited, (int, float)) else None

    def close(self) -> None:
        """Hang up: the zygote (or the container's launcher) ends, its workers with
        it; a zygote this process started is waited for (killed if it lingers)."""
        self.socket.close()
        if self.process is not None:
            try:
                self.process.wait(timeout=ZYGOTE_END_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_zygote(wrap: Sequence[str], game: str) -> BrokerSpawner:
    """Start the run's zygote in a bubblewrap view of its own (``wrap``: bwrap and
    its options, made by the host), as the first process of its PID namespace,
    and the spawner that asks it. Its imports are made while the suite is
    collected; the first start waits for them."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with theirs:
        # The interpreter itself, not a virtual environment's link to it: the
        # view holds the interpreter's folders and no environment.
        process = subprocess.Popen(
            [wrap[0], "--as-pid-1", *wrap[1:], os.path.realpath(sys.executable), "-I", "-B",
             str(ZYGOTE), str(theirs.fileno()), game],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
    return BrokerSpawner(ours.detach(), process)


def serve(sock: socket.socket, spawner: LocalSpawner) -> None:
    """The launcher's side: answer the supervisor until it hangs up."""
    while True:
        data = sock.recv(65536)
        if not data:
            return
        request = json.loads(data)
        op = request.get("op")
        if op == "spawn":
            try:
                pid, fds = spawner.start([str(a) for a in request["args"]], request["cwd"])
            except SpawnFailed as exc:
                sock.sendall(json.dumps({"error": str(exc)}).encode())
                continue
            socket.send_fds(sock, [json.dumps({"pid": pid}).encode()], list(fds))
            for fd in fds:
                os.close(fd)
        elif op == "kill":
            spawner.kill(request["pid"])
            sock.sendall(b"{}")
        elif op == "finish":
            spawner.finish()
            sock.sendall(b"{}")
        elif op == "waited":
            sock.sendall(json.dumps({"waited": spawner.waited(request["pid"])}).encode())
        elif op == "wait":
            sock.sendall(json.dumps({"code": spawner.wait(request["pid"])}).encode())
        else:
            sock.sendall(json.dumps({"error": f"unknown request {op!r}"}).encode())
