"""Starting, killing and reaping the student's worker process.

In the local sandbox the supervisor starts the worker itself. In the Docker
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


def worker_command(rpc_in: int, rpc_out: int, args: Sequence[str]) -> list[str]:
    return [sys.executable, "-I", "-B", "-u", str(WORKER), str(rpc_in), str(rpc_out), *args]


class LocalSpawner:
    """Starts workers as children of this process (as ``user``, when given)."""

    def __init__(self, user: int | None = None, env: dict[str, str] | None = None) -> None:
        self.user = user
        self.env = env
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    def start(self, args: Sequence[str], cwd: str) -> tuple[int, tuple[int, int, int]]:
        """The worker's pid and the three fds of its side of the pipes, kept open."""
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        out_r, out_w = os.pipe()
        try:
            process = subprocess.Popen(
                worker_command(to_r, from_w, args), stdin=subprocess.DEVNULL, stdout=out_w,
                stderr=out_w, pass_fds=(to_r, from_w), cwd=cwd, start_new_session=True,
                env=self.env, user=self.user, group=self.user,
                extra_groups=[] if self.user is not None else None,
            )
        except OSError as exc:
            for fd in (to_w, from_r, out_r):
                os.close(fd)
            raise SpawnFailed(f"could not start your code: {exc.strerror or exc}") from None
        finally:
            for fd in (to_r, from_w, out_w):
                os.close(fd)
        self.processes[process.pid] = process
        return process.pid, (to_w, from_r, out_r)

    def spawn(self, args: Sequence[str], cwd: str) -> Spawned:
        pid, (to_w, from_r, out_r) = self.start(args, cwd)
        return Spawned(pid, os.fdopen(to_w, "wb"), from_r, os.fdopen(out_r, "rb"))

    def kill(self, pid: int) -> None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def wait(self, pid: int) -> int | None:
        process = self.processes.pop(pid, None)
        return process.wait() if process else None


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
        elif op == "wait":
            sock.sendall(json.dumps({"code": spawner.wait(request["pid"])}).encode())
        else:
            sock.sendall(json.dumps({"error": f"unknown request {op!r}"}).encode())
