"""``serve`` stopped as systemd and ``docker stop`` stop it (SIGTERM): it stops
taking jobs, puts the one in flight back uncharged, leaves no container, no
process and no control group behind, and exits within a bounded time; started
again, it grades that job once."""

import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import docker
import httpx2
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from grader.sandbox import cgroups
from grader.sandbox.containers import LABEL
from grader.service.models import Job
from tests.service.conftest import FULL_MARKS, NAME, open_served

STOP_SECONDS = 60  # far above what a stop takes (a few seconds), on a busy machine
# The reference, with a first call that sleeps: its grading is in flight for minutes.
SLOW = FULL_MARKS.read_text().replace(
    "def min_value(gameState):\n", "def min_value(gameState):\n    import time\n"
    "    time.sleep(600)\n", 1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(folder: Path, port: int, sandbox: str) -> tuple[subprocess.Popen, str]:
    """``serve`` on ``port``, its data in ``folder``: the process, and the student's link."""
    roster = folder / "roster.csv"
    roster.write_text("name,email\nAda,ada@example.edu\n", encoding="utf-8")
    command = [str(Path(sys.executable).parent / "minimax-grader"), "serve", "--port",
               str(port), "--data", str(folder / "data"), "--sandbox", sandbox,
               "--workers", "2", "--roster", str(roster)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    said = ""
    while "Uvicorn running on" not in said:
        line = server.stderr.readline()
        assert line, f"serve stopped: {said}"
        said += line
    link = re.search(rf"http://127.0.0.1:{port}/s/[\w-]+", said + server.stdout.readline())
    login = re.search(r"/i/([\w-]+)$", server.stdout.readline().strip())
    drain(server)
    if login:  # the first start (a restart shows no link): a new exercise is hidden
        open_served(f"http://127.0.0.1:{port}", login.group(1))
    return server, link.group(0) if link else ""


def drain(server: subprocess.Popen) -> None:
    """Read what ``serve`` says from now on, so that a full pipe never stalls it
    (its request and job lines would fill one within minutes)."""
    for stream in (server.stdout, server.stderr):
        threading.Thread(target=stream.read, daemon=True).start()


def jobs(folder: Path) -> list[tuple[str, int]]:
    engine = create_engine(f"sqlite:///{folder / 'data' / 'grader.sqlite3'}")
    try:
        with Session(engine) as session:
            return [(job.state, job.attempts) for job in session.scalars(select(Job))]
    finally:
        engine.dispose()


def run_processes(server: int, engine=None) -> list[int]:
    """The processes of ``server``'s runs: those in its sandboxes' control groups
    and, given the Docker ``engine``, those in its containers (whose group is the
    engine's own where the engine makes one of v2)."""
    pids = [int(pid) for folder in cgroups.ours()
            if folder.name.startswith(f"{cgroups.PREFIX}{server}-")
            for pid in (folder / "cgroup.procs").read_text().split()]
    if engine is not None:
        for container in engine.containers.list(filters={"label": owned_by(server)},
                                                ignore_removed=True):
            try:
                top = container.top()
            except docker.errors.APIError:  # ended meanwhile
                continue
            column = top["Titles"].index("PID")
            pids += [int(row[column]) for row in top["Processes"] or []]
    return pids


def owned_by(server: int) -> str:
    """The label of the containers ``server`` starts."""
    return f"{LABEL}.owner={socket.gethostname()}:{server}"


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, killed and not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def hand_in(link: str, text: str) -> None:
    with httpx2.Client(follow_redirects=False) as client:
        page = client.get(link).text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        done = client.post(f"{link}/submit/helpers", data={"csrf": csrf},
                           files=[("files", (NAME, text.encode(), "text/x-python"))])
    assert done.status_code == 303, done.text


def until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.2)


@pytest.mark.timeout(600)
@pytest.mark.parametrize("sandbox", ["docker", "local"])
def test_sigterm_puts_the_job_back_and_leaves_nothing(tmp_path, sandbox, request):
    if sandbox == "docker":
        engine = request.getfixturevalue("docker_client")
    port = free_port()
    server, link = start(tmp_path, port, sandbox)
    try:
        hand_in(link, SLOW)
        until(lambda: jobs(tmp_path) == [("running", 1)], 120, "the job is taken")
        engine_if_docker = engine if sandbox == "docker" else None
        until(lambda: len(run_processes(server.pid, engine_if_docker)) > 2, 120,
              "the student's code runs")
        running = run_processes(server.pid, engine_if_docker)
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=STOP_SECONDS)
        assert time.monotonic() - started < STOP_SECONDS
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert jobs(tmp_path) == [("waiting", 0)]  # put back, its attempt not counted
    assert not [path for path in cgroups.ours() if path.name.startswith(
        f"{cgroups.PREFIX}{server.pid}-")]
    # Killed, they may take a moment to be reaped.
    until(lambda: not [pid for pid in running if alive(pid)], 30, "the run's processes end")
    if sandbox == "docker":
        assert engine.containers.list(all=True, filters={"label": owned_by(server.pid)},
                                      ignore_removed=True) == []
    # Started again, the service grades the job once: the sleep is the student's own time.
    server, _ = start(tmp_path, port, "local")
    try:
        until(lambda: jobs(tmp_path) == [("done", 1)], 300, "the job is graded again")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=STOP_SECONDS)
