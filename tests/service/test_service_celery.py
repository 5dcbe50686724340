"""Grading hosts: the service with a real Redis broker and real Celery worker
processes (``minimax-grader worker``), which grade in the local sandbox and share
the test's SQLite database and store. Every wait polls observable state, bounded."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from conftest import skip_loudly
from sqlalchemy import func, select
from starlette.testclient import TestClient

from grader import intake, solutions
from grader.service import app, db
from grader.service.core import Service
from grader.service.dispatch import Dispatcher
from grader.service.models import Job, Report
from grader.service.options import Options
from grader.service.queue import MAX_ATTEMPTS
from tests.service.conftest import FULL_MARKS, NAME, open_all
from tests.service.held import held, letting_go, under_way
from tests.service.redis_server import RedisServer, started

COMMAND = str(Path(sys.executable).parent / "minimax-grader")
FULL = '<strong class="counted">10/10</strong>'


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        skip_loudly("the service's grading hosts (Celery over Redis)",
                    "no redis-server on PATH (Debian: apt-get install redis-server)")
    server = started(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


def wait_for(what: str, ready: Callable[[], object], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(0.1)


class Worker:
    """A grading host: ``minimax-grader worker`` in a process group of its own."""

    def __init__(self, data: Path, broker: str, log: Path, temp: Path, *extra: str) -> None:
        self.log = log
        with open(log, "wb") as out:
            self.process = subprocess.Popen(
                [COMMAND, "worker", "--broker", broker, "--database", db.sqlite_url(data),
                 "--data", str(data), "--sandbox", "local", "--concurrency", "1", *extra],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                env={**os.environ, "TMPDIR": str(temp)})

    def said(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)


class Grid:
    """The web process (in this one: its app, with the dispatcher) and its hosts."""

    def __init__(self, folder: Path, broker: str) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.broker = broker
        self.service = Service(Options(data=self.data, broker=broker))
        # The first course and its instructor's login (shown once), its exercises opened.
        self.secret = self.service.access.first_instructor_secret()
        open_all(self.service)
        self.client = TestClient(app.build(self.service, Dispatcher(self.service, broker)))
        self.client.__enter__()  # the app's lifespan starts the dispatcher
        self.workers: list[Worker] | None = []
        self.temp = folder / "tmp"  # the hosts' temporary files: their gradings' folders
        self.temp.mkdir(exist_ok=True)

    def worker(self, *extra: str) -> Worker:
        assert self.workers is not None
        host = Worker(self.data, self.broker, self.folder / f"worker-{len(self.workers)}.log",
                      self.temp, *extra)
        self.workers.append(host)
        return host

    def close(self) -> None:
        if self.workers is None:
            return
        self.client.__exit__(None, None, None)
        for host in self.workers:
            host.kill()
        self.workers = None
        self.service.engine.dispose()

    def enrol(self, count: int = 1) -> list[str]:
        people = [(f"Student {n}", f"s{n}@example.edu") for n in range(count)]
        return [token for _, token in self.service.students.import_roster(1, people) if token]

    def hand_in(self, token: str, source: bytes) -> None:
        page = self.client.get(f"/s/{token}").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf, page
        done = self.client.post(f"/s/{token}/submit/helpers", data={"csrf": csrf.group(1)},
                                files=[("files", (NAME, source))], follow_redirects=False)
        assert done.status_code == 303, done.text

    def jobs(self) -> list[Job]:
        with self.service.sessions() as session:
            return list(session.scalars(select(Job).order_by(Job.id)))

    def reports(self) -> int:
        with self.service.sessions() as session:
            return session.scalar(select(func.count()).select_from(Report)) or 0

    def finished(self, count: int) -> Callable[[], bool]:
        return lambda: sum(job.state in ("done", "error") for job in self.jobs()) == count


@pytest.fixture
def grid(tmp_path: Path, redis_server: RedisServer) -> Iterator[Grid]:
    redis.Redis.from_url(redis_server.url).flushall()
    made = Grid(tmp_path, redis_server.url)
    yield made
    made.close()


def test_a_grading_host_grades_a_submission_and_the_page_shows_it(grid):
    assert grid.service.jobs.sandbox is None  # the web process never grades
    grid.worker()
    [token] = grid.enrol()
    grid.hand_in(token, FULL_MARKS.read_bytes())
    wait_for("the job graded", grid.finished(1))
    [job] = grid.jobs()
    assert (job.state, job.attempts) == ("done", 1)
    assert FULL in grid.client.get(f"/s/{token}").text


def test_a_killed_hosts_job_is_graded_by_another_once(grid):
    hosts = [grid.worker(), grid.worker()]
    [token] = grid.enrol()
    grid.hand_in(token, held())
    wait_for("the student's code running", lambda: under_way(grid.temp))
    wait_for("a host grading", lambda: any("job 1: grading on" in h.said() for h in hosts))
    [grading] = [host for host in hosts if "job 1: grading on" in host.said()]
    [other] = [host for host in hosts if host is not grading]
    assert grid.jobs()[0].state == "running"
    grading.kill()
    killed = time.monotonic()
    # Well under the broker's visibility timeout (minutes): taken back at the kill,
    # not redelivered when that runs out; wide for a loaded 2-core machine.
    wait_for("the job graded by the other host", letting_go(grid.temp, grid.finished(1)),
             seconds=90)
    print(f"graded again {time.monotonic() - killed:.1f} s after the kill")
    [job] = grid.jobs()
    assert (job.state, job.attempts) == ("done", 2)
    assert "job 1: grading on" in other.said()
    assert grid.reports() == 1
    assert FULL in grid.client.get(f"/s/{token}").text


def test_a_broker_restart_mid_batch_loses_no_submission(grid, redis_server):
    """Redis keeps no data here (no appendonly): the web process notices the new
    server and sends the waiting jobs again from the database."""
    grid.worker()
    grid.worker()
    tokens = grid.enrol(4)
    for token in tokens:
        grid.hand_in(token, held())
    wait_for("both hosts grading", lambda: len(under_way(grid.temp)) == 2)
    redis_server.restart()  # the two queued jobs, the leases, the unacked: all gone
    wait_for("every submission graded", letting_go(grid.temp, grid.finished(4)))
    assert [job.state for job in grid.jobs()] == ["done"] * 4
    assert grid.reports() == 4
    for token in tokens:
        assert FULL in grid.client.get(f"/s/{token}").text


def test_a_job_that_fails_three_times_is_an_error_report_not_a_loop(grid):
    [token] = grid.enrol()
    grid.hand_in(token, FULL_MARKS.read_bytes())
    for stored in grid.data.glob("files/*/*"):
        stored.unlink()  # the host cannot read the files: its grading raises
    host = grid.worker()
    wait_for("the job given up", grid.finished(1))
    [job] = grid.jobs()
    assert (job.state, job.attempts) == ("error", MAX_ATTEMPTS)
    assert host.said().count("the grader raised FileNotFoundError") == MAX_ATTEMPTS
    assert grid.reports() == 1
    assert "we could not grade this, it does not count" in grid.client.get(f"/s/{token}").text


def test_a_host_without_the_image_refuses_and_another_grades(grid):
    old = grid.worker("--pretend-image", "minimax-grader:0.0@0000000000000000")
    [token] = grid.enrol()
    grid.hand_in(token, FULL_MARKS.read_bytes())
    wait_for("the refusal noted on the job", lambda: "refused by" in (grid.jobs()[0].last_error
                                                                      or ""))
    assert "minimax-grader:0.0@0000000000000000" in grid.jobs()[0].last_error
    assert "the job needs the grading image minimax-grader:" in old.said()
    assert grid.jobs()[0].state == "waiting"
    new = grid.worker()
    wait_for("the job graded by the host with the image", grid.finished(1))
    [job] = grid.jobs()
    # A refusal is no attempt: each one counted is a grading of the host with the
    # image (one, or more where a run failed on the grader's side and was tried again).
    tried_again = len(re.findall(r"outcome=(?:retry|retried_after_load)\b", new.said()))
    assert (job.state, job.attempts) == ("done", 1 + tried_again), new.said()[-3000:]
    assert FULL in grid.client.get(f"/s/{token}").text


def test_a_restarted_web_process_sends_the_jobs_the_broker_lost(grid, redis_server):
    [token] = grid.enrol()
    grid.hand_in(token, FULL_MARKS.read_bytes())
    grid.close()
    redis.Redis.from_url(redis_server.url).flushall()  # the broker lost the job

    again = Grid(grid.folder, redis_server.url)
    try:
        again.worker()
        wait_for("the job graded", again.finished(1))
        assert FULL in again.client.get(f"/s/{token}").text
    finally:
        again.close()


def test_a_host_grades_the_students_in_turn_not_the_oldest_job_first(grid):
    """The broker hands jobs out oldest first; the host grades the fairest in each's place."""
    grid.enrol(3)
    first, second, third = (student.id for student in grid.service.students.of_course(1))
    for exercise in ("helpers", "decision", "depth_limit"):  # the first student's three
        [solution] = solutions.reference_folder(exercise).iterdir()
        grid.service.jobs.submit(first, exercise,
                                 intake.Submission({solution.name: solution.read_bytes()}))
    for student in (second, third):
        grid.service.jobs.submit(student, "helpers",
                                 intake.Submission({NAME: FULL_MARKS.read_bytes()}))
    host = grid.worker()  # one host, one job at a time
    wait_for("every job graded", grid.finished(5), seconds=120)
    # The students in the order the host took them, a run tried again (the grader
    # failed, or the machine starved it) included: it took that student's turn.
    said = host.said()
    taken = [int(student) for student in re.findall(r" job job_id=\d+ student_id=(\d+)", said)]
    assert taken[:3] == [first, second, third], said[-3000:]  # oldest first: 1, 1, 1
    assert taken[3:].count(first) >= 2 and grid.reports() == 5, said[-3000:]


@pytest.mark.timeout(600)
def test_a_host_stopped_by_sigterm_sends_its_job_back_and_leaves_nothing(grid):
    """SIGTERM (systemd, docker stop) on a grading host: the grading in flight is cut
    short, its job sent again uncharged, the host's processes and control groups
    gone, within seconds; another host then grades the job once."""
    from grader.sandbox import cgroups
    from tests.service.test_service_stop import SLOW, alive

    host = grid.worker()
    [token] = grid.enrol()
    grid.hand_in(token, SLOW.encode())
    ours = lambda: [folder for folder in cgroups.ours()  # noqa: E731
                    if folder.name.startswith(f"{cgroups.PREFIX}{host.process.pid}-")]
    wait_for("the student's code runs", lambda: any(
        len((folder / "cgroup.procs").read_text().split()) > 2 for folder in ours()), 120)
    running = [int(pid) for folder in ours() for pid in (folder / "cgroup.procs").read_text()
               .split()]
    started = time.monotonic()
    host.process.send_signal(signal.SIGTERM)
    host.process.wait(timeout=120)
    assert time.monotonic() - started < 60, host.said()
    assert not ours()
    wait_for("the run's processes end", lambda: not [p for p in running if alive(p)], 30)
    [job] = grid.jobs()
    assert job.state in ("waiting", "running") and job.attempts <= 1
    assert "the service stopped while grading it" in (job.last_error or "")
    # Another host takes it, graded once: the sleep is the student's own time.
    grid.worker()
    wait_for("the job graded by the other host", grid.finished(1), 300)
    assert grid.reports() == 1
