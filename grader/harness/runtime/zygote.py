"""Workers forked from a process that imported the worker's modules ahead.

A new interpreter for each of a run's workers (one a test) cost most of a
worker's start: the interpreter's own, then the worker's imports, about
45 ms of CPU each time. A zygote makes those once, before any code of the
student's runs, and forks every worker: the child changes to the student's
user where the zygote is root's, makes its pipes its only files, and runs
``worker.main`` as a new interpreter would, ending with ``os._exit`` so that
it never returns into the zygote's code. The zygote itself never runs the
student's code; what its memory holds (the worker's modules, the job's
public facts) each worker holds anyway.

Two kinds: the Docker sandbox's launcher (root; see ``launcher``), and, in
the local sandbox, ``python zygote.py SOCKET_FD GAME``: the first process
of a bubblewrap view of its own, as the student's user, started by the
supervisor. It answers the supervisor's requests as the launcher does
(``spawn.serve``), and a kill ends every other process of its PID namespace
(``NamespaceSpawner``), where the student's code can't signal it (the
namespace's first process gets no signal it has no handler for) nor trace
it (it is not dumpable).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import sys
import time
import traceback
from collections.abc import Sequence
from typing import NoReturn

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))]

from grader.harness.runtime import spawn, standins, worker  # noqa: E402  (needs the path above)

KILL_SECONDS = 3


def preload(game: str) -> None:
    """Import what a worker of ``game`` imports, the kit of its stand-ins too."""
    standins.kit(game)


class Forked:
    """A worker forked from this process: its pid and exit code (as ``Popen``'s)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def wait(self) -> int:
        return os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])


class ForkSpawner(spawn.LocalSpawner):
    """Starts each worker as a fork of this process (as ``user``, when given)."""

    def _launch(self, args: Sequence[str], cwd: str, fds: tuple[int, int, int]) -> Forked:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # nothing of this process's output is written twice
        pid = os.fork()
        if pid == 0:
            _become_worker(args, cwd, fds, self.user, self.env)
        return Forked(pid)


class NamespaceSpawner(ForkSpawner):
    """The local sandbox's zygote, the first process of its PID namespace: a
    kill ends every other process there, the worker's forks with it."""

    def __init__(self) -> None:
        super().__init__()
        self.codes: dict[int, int] = {}  # the exit codes of the workers reaped at a kill

    def _end(self, pid: int) -> bool:
        """Kill every other process here and reap them, orphans included (this
        process is their init): whether none is left within ``KILL_SECONDS``
        (one forked while the kill went round is found by the next pass)."""
        deadline = time.monotonic() + KILL_SECONDS
        while True:
            with contextlib.suppress(ProcessLookupError):  # none left to signal
                os.kill(-1, signal.SIGKILL)  # all but this process, the first
            try:
                self._reap()
            except ChildProcessError:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)

    def _reap(self) -> None:
        """Reap the children that have ended; ChildProcessError where none is left."""
        while True:
            done, status = os.waitpid(-1, os.WNOHANG)
            if done == 0:
                return
            if done in self.processes:
                self.codes[done] = os.waitstatus_to_exitcode(status)

    def wait(self, pid: int) -> int | None:
        if pid in self.codes:
            self.processes.pop(pid, None)
            return self.codes.pop(pid)
        return super().wait(pid)


def _become_worker(args: Sequence[str], cwd: str, fds: tuple[int, int, int],
                   user: int | None, env: dict[str, str] | None) -> NoReturn:
    """The forked child: become a worker as ``worker.py`` started with ``python
    -I -B -u`` would be, run it, and end; never return."""
    code = 1
    try:
        requests, answers, output = fds
        os.setsid()
        _only_files(output, (requests, answers))
        if user is not None:
            os.setgroups([])
            os.setresgid(user, user, user)
            os.setresuid(user, user, user)
        # The kernel makes a process that changed its user undumpable, and this
        # zygote is too: the worker makes itself as a new interpreter would be
        # (its /proc entries its user's: oom_score_adj, for one).
        spawn.set_dumpable(True)
        os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _fresh_streams()
        sys.argv = [str(spawn.WORKER), str(requests), str(answers), *args]
        worker.main(sys.argv[1:])
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except BaseException:  # the grader's own failure: said where the worker's output goes
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: S110 (a stream the student's code broke)
                pass
        os._exit(code)


def _only_files(output: int, kept: Sequence[int]) -> None:
    """Make /dev/null standard input, ``output`` standard output and error, and
    close every other file but ``kept``: the zygote's sockets above all."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    keep = sorted({0, 1, 2, *kept})
    for low, high in zip(keep, [*keep[1:], os.sysconf("SC_OPEN_MAX")], strict=True):
        os.closerange(low + 1, high)


def _fresh_streams() -> None:
    """Standard streams as ``python -u`` makes them, on the new files 0 to 2,
    the original ones (``sys.__stdout__``...) too, as in a new interpreter."""
    streams = (io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r"))),
               io.TextIOWrapper(io.FileIO(1, "w"), errors="surrogateescape", write_through=True),
               io.TextIOWrapper(io.FileIO(2, "w"), errors="backslashreplace", write_through=True))
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams  # type: ignore[misc]


def main(argv: list[str]) -> None:
    spawn.set_dumpable(False)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a handler would let the student's code in
    sock, game = socket.socket(fileno=int(argv[0])), argv[1]
    preload(game)
    spawn.serve(sock, NamespaceSpawner())


if __name__ == "__main__":
    main(sys.argv[1:])
