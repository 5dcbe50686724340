"""A warm judge: the supervisor of every box on a host, started once and forked per run.

``python -I -B judge.py SOCKET_FD SUITE...``, as the first process the host
starts, in a bubblewrap view of its own (unprivileged, no network) or, for
the local sandbox without bubblewrap, unwrapped: it imports pytest, the
plugin and what each SUITE folder's files import, says so, then serves the
host's runs one at a time (see ``grader.contracts.judge_socket``). Each run is
a fork: the child makes the two descriptors the host sent its standard output
(the results channel) and error (the log), waits until the host has put it in
the run's control group, and runs the job as ``supervisor.py JOB --wrap
PREFIX`` would, its own zygote and workers started in their own narrower
view; for a run in a container, the workers started by the container's
launcher, which connects to the socket the host passed (``supervisor.py JOB
FD`` as inside the container); unwrapped, as ``supervisor.py JOB``, the
workers its own children. This process never runs a job itself, so no run
leaves anything in it for the next; the student's code never runs in either.
"""

import json
import os
import signal
import socket
import sys
import traceback
from typing import Any, NoReturn

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))))]

from grader.contracts import judge_socket  # noqa: E402  (needs the path above)
from grader.harness.runtime import spawn, supervisor  # noqa: E402

LAUNCHER_SECONDS = 120  # for the container's launcher to connect, its job received


def serve(sock: socket.socket) -> None:
    """Answer the host's requests until it hangs up."""
    while True:
        data, fds, _, _ = socket.recv_fds(sock, judge_socket.MESSAGE_CAP, judge_socket.LAUNCHER_FDS)
        if not data:
            return
        try:
            request = judge_socket.decode(data, judge_socket.REQUEST)
            pid = _fork(sock, request, fds) if len(fds) in (judge_socket.FDS,
                                                            judge_socket.LAUNCHER_FDS) else None
        finally:
            # The run's, not this process's: a launcher's socket listens no more
            # once the child has taken its one connection.
            for fd in fds:
                os.close(fd)
        code = 2 if pid is None else os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        sock.sendall(judge_socket.encode(judge_socket.EXIT, code=code))


def _fork(sock: socket.socket, request: dict[str, Any], fds: list[int]) -> int:
    """Fork the run's child: its pid."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # nothing of this process's output is written twice
    pid = os.fork()
    if pid == 0:
        _child(sock, request, fds)
    return pid


def _child(sock: socket.socket, request: dict[str, Any], fds: list[int]) -> NoReturn:
    """The run's supervisor: never returns into the serving loop."""
    code = 1
    try:
        results, log, *launcher = fds
        os.dup2(results, 1)
        os.dup2(log, 2)
        sock.sendall(judge_socket.encode(judge_socket.STARTED))
        judge_socket.decode(sock.recv(judge_socket.MESSAGE_CAP), judge_socket.GO)
        sock.close()
        work = os.path.dirname(request["job"])
        os.chdir(work)
        os.environ.update(HOME=work, TMPDIR=work)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        code = supervisor.run_suite(str(request["job"]), _spawner(request, launcher))
    except BaseException:  # the grader's own failure: said in the run's log
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(code)


def _spawner(request: dict[str, Any], launcher: list[int]) -> list[str]:
    """The supervisor's arguments that say who starts the run's workers: the
    container's launcher, a zygote in the bubblewrap view ``wrap``, or (an
    unwrapped judge's run) the supervisor itself."""
    if launcher:
        return [str(_launcher(launcher[0], str(request["token"])))]
    return [supervisor.WRAP, json.dumps(request["wrap"])] if request["wrap"] else []


def _launcher(listening: int, token: str) -> int:
    """The connection of the run's container launcher, which says ``token`` first
    (the only one taken: the socket listens no more): its descriptor."""
    with socket.socket(fileno=listening) as listener:
        listener.settimeout(LAUNCHER_SECONDS)
        connection, _ = listener.accept()
    connection.settimeout(LAUNCHER_SECONDS)
    said = connection.recv(len(token) + 1)
    if not token or said != token.encode():
        raise SystemExit("judge: the launcher that connected is not this run's")
    connection.settimeout(None)
    return connection.detach()


def main(argv: list[str]) -> None:
    spawn.set_dumpable(False)  # the runs' children too: kept from the student's processes
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the host ends it by hanging up
    sock = socket.socket(fileno=int(argv[0]))
    for suite in argv[1:]:
        supervisor.warm_up(suite)
    sock.sendall(judge_socket.encode(judge_socket.READY))
    serve(sock)


if __name__ == "__main__":
    main(sys.argv[1:])
