"""Starting, killing and reaping the student's worker process.

In the local sandbox the supervisor starts the worker itself, in a
bubblewrap view of its own where bubblewrap is there (``WrappedSpawner``).
In the Docker
sandbox the supervisor and the worker run as two different users, and only
the container's launcher may start processes as the student: the supervisor
then asks the launcher over a socket (``BrokerSpawner``), and receives the
worker's pipes as file descriptors.
"""

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

WORKER = Path(__file__).resolve().parent / "worker.py"


@dataclass
class Spawned:
    pid: int
    requests: BinaryIO  # a binary file the supervisor writes requests to
    answers: int  # the fd answers are read from
    output: BinaryIO  # a binary file carrying the worker's stdout and stderr


class SpawnFailed(OSError):
    """The worker could not be started (too many processes, say)."""


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
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
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
            process = self._popen(worker_command(to_r, from_w, args), (to_r, from_w),
                                  stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w,
                                  cwd=cwd, start_new_session=True, env=self.env,
                                  user=self.user, group=self.user,
                                  extra_groups=[] if self.user is not None else None)
        except OSError as exc:
            for fd in (to_w, from_r, out_r):
                os.close(fd)
            raise SpawnFailed(f"could not start your code: {exc.strerror or exc}") from None
        finally:
            for fd in (to_r, from_w, out_w):
                os.close(fd)
        self.processes[process.pid] = process
        return process.pid, (to_w, from_r, out_r)

    def _popen(self, command: list[str], fds: tuple[int, ...], **options: Any
               ) -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, pass_fds=fds, **options)

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


class WrappedSpawner(LocalSpawner):
    """Starts each worker in a bubblewrap view of its own: ``wrap`` is bwrap and
    its options, made by the host (``grader.sandbox.bubblewrap``).

    The worker is the first process of its PID namespace (``--as-pid-1``), and
    a kill is sent to it, held by a pidfd, not to bwrap: its namespace ends
    with it, and a worker that had already ended keeps its own exit status
    (bwrap killed first would report a SIGKILL for a worker that exited 0).
    """

    def __init__(self, wrap: Sequence[str]) -> None:
        super().__init__()
        self.wrap = list(wrap)
        self.workers: dict[int, int] = {}  # bwrap's pid -> a pidfd of the worker in it

    def _popen(self, command: list[str], fds: tuple[int, ...], **options: Any
               ) -> subprocess.Popen[bytes]:
        info_r, info_w = os.pipe()
        # The interpreter itself, not a virtual environment's link to it: the
        # worker's view holds the interpreter's folders and no environment.
        command = [self.wrap[0], "--as-pid-1", "--info-fd", str(info_w), *self.wrap[1:],
                   os.path.realpath(command[0]), *command[1:]]
        try:
            process = super()._popen(command, (*fds, info_w), **options)
        except OSError:
            os.close(info_r)
            raise
        finally:
            os.close(info_w)
        with os.fdopen(info_r, "rb") as info:  # bwrap closes it once the worker runs
            started = info.read()
        if started:
            try:
                self.workers[process.pid] = os.pidfd_open(json.loads(started)["child-pid"])
            except ProcessLookupError:  # ended already: nothing to kill
                pass
        return process

    def _end(self, pid: int) -> bool:
        """Kill the worker: its PID namespace, all it started, ends with it."""
        worker = self.workers.pop(pid, None)
        if worker is None:
            return super()._end(pid)
        try:
            signal.pidfd_send_signal(worker, signal.SIGKILL)
        except ProcessLookupError:
            pass
        finally:
            os.close(worker)
        return True

    def wait(self, pid: int) -> int | None:
        code = super().wait(pid)
        # bwrap ends with 128 + N where the worker was killed by signal N: as
        # a worker's own, the code is then -N (exit(137) passes for a SIGKILL).
        return 128 - code if code is not None and code > 128 else code


class BrokerSpawner:
    """Asks the launcher, over a SOCK_SEQPACKET socket, to start and end workers."""

    def __init__(self, fd: int) -> None:
        self.socket = socket.socket(fileno=fd)

    def _ask(self, message: dict[str, object], fds: int = 0) -> tuple[dict[str, Any], list[int]]:
        self.socket.sendall(json.dumps(message).encode())
        data, received, _, _ = socket.recv_fds(self.socket, 65536, fds)
        return json.loads(data), received

    def spawn(self, args: Sequence[str], cwd: str) -> Spawned:
        reply, fds = self._ask({"op": "spawn", "args": args, "cwd": cwd}, fds=3)
        if "error" in reply:
            raise SpawnFailed(reply["error"])
        to_w, from_r, out_r = fds
        return Spawned(reply["pid"], os.fdopen(to_w, "wb"), from_r, os.fdopen(out_r, "rb"))

    def kill(self, pid: int) -> None:
        self._ask({"op": "kill", "pid": pid})

    def finish(self) -> None:
        self._ask({"op": "finish"})

    def wait(self, pid: int) -> Any:
        return self._ask({"op": "wait", "pid": pid})[0]["code"]


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
        elif op == "wait":
            sock.sendall(json.dumps({"code": spawner.wait(request["pid"])}).encode())
        else:
            sock.sendall(json.dumps({"error": f"unknown request {op!r}"}).encode())
