"""The service never leaves the sandbox by itself.

Without its grading image (a tag that does not exist, named through
MINIMAX_GRADER_IMAGE: no real image is touched) ``serve`` takes no job: the
jobs wait, no attempt is counted, and the instructor's page and the log say
why and how to fix it. Once the image is there, the waiting jobs are graded.
Only ``--sandbox local`` grades locally.
"""

import contextlib
import json
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from sqlalchemy import select, text

from grader import exercises, grading, image
from grader.sandbox import Sandbox, SandboxUnavailable, local_is_boundary
from grader.service import core, tasks
from grader.service import gate as gates
from grader.service.models import Job
from grader.service.options import Options, grader_version
from grader.service.pool import Pool
from tests.service.conftest import FULL_MARKS, NAME, Site
from tests.service.postgres_server import until
from tests.service.test_service_celery import grid, redis_server  # noqa: F401
from tests.service.test_service_faults import HTTP_SECONDS, Server, hand_in
from tests.test_image import retitle_and_repoint

FIX = "minimax-grader image build"
# Long enough for the pool to look at the queue and the gate to look at the engine
# several times (every 2 s each): a job that is not taken by then is held back.
HELD_SECONDS = 3 * max(gates.LOOK_SECONDS, 2.0)


class DefaultServer(Server):
    """``serve`` with its default sandbox: Docker."""

    sandbox = ()
    real_tag = ""

    def instructor_page(self) -> str:
        """The first course's gradebook, as the first instructor's link opens it."""
        link = next(found.group(1) for line in self.out
                    if (found := re.search(r"(http://\S+/i/[\w-]+)$", line.strip())))
        with httpx2.Client(timeout=HTTP_SECONDS, follow_redirects=True) as client:
            client.get(link)  # its cookie
            return client.get(f"{self.url}/i/c/1").text

    def jobs(self) -> list[tuple[str, int, str | None]]:
        with self.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(
                text("SELECT state, attempts, last_error FROM jobs ORDER BY id"))]

    def report(self) -> dict:
        with self.engine.connect() as connection:
            return json.loads(connection.execute(text("SELECT body FROM reports")).scalar_one())


@pytest.fixture
def absent_tag() -> str:
    return f"minimax-grader-test-absent:{uuid.uuid4().hex[:12]}"


@pytest.fixture
def serving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, absent_tag: str
            ) -> Iterator[DefaultServer]:
    """A DefaultServer (not started) whose grading image is ``absent_tag``; its
    ``real_tag`` is this checkout's image's."""
    made = DefaultServer(tmp_path)
    made.real_tag = image.default_tag()
    monkeypatch.setenv("MINIMAX_GRADER_IMAGE", absent_tag)
    yield made
    if made.process and made.process.poll() is None:
        made.kill()
    made.engine.dispose()


def test_without_its_image_serve_takes_no_job_and_says_why(serving, absent_tag):
    server = serving.start(roster=True)
    said = "".join(server.err)
    # Why: the image is missing, or (on a machine without Docker) no engine answers.
    assert "grading waits" in said and FIX in said
    assert absent_tag in said or "no Docker engine answers" in said
    assert "NOT a security boundary" not in said  # no fall-back to the local sandbox
    assert hand_in(server, server.tokens["Ada"], [(NAME, FULL_MARKS.read_bytes())]
                   ).status_code == 303
    time.sleep(HELD_SECONDS)
    assert server.jobs() == [("waiting", 0, None)] and server.count("reports") == 0
    page = server.instructor_page()
    assert "Grading waits:" in page and FIX in page
    assert "1 waiting, 0 running" in page


def test_once_its_image_is_there_the_waiting_jobs_are_graded(docker_client, serving,
                                                              absent_tag):
    server = serving.start(roster=True)
    assert hand_in(server, server.tokens["Ada"], [(NAME, FULL_MARKS.read_bytes())]
                   ).status_code == 303
    assert server.jobs() == [("waiting", 0, None)]
    repository, _, tag = absent_tag.partition(":")
    docker_client.images.get(server.real_tag).tag(repository, tag)  # the same image, a new name
    try:
        until(lambda: server.jobs()[0][0] == "done", 120, "the waiting job is graded")
    finally:
        docker_client.images.remove(absent_tag)  # the name only: the image keeps its own
    assert server.jobs() == [("done", 1, None)]
    made = server.report()
    assert made["sandbox"]["backend"] == "docker" and made["score"] == made["max_score"]
    assert "Grading waits:" not in server.instructor_page()
    assert "the grading image is there" in "".join(server.err)


def test_only_sandbox_local_grades_locally(tmp_path):
    server = Server(tmp_path).start(roster=True)  # --sandbox local
    try:
        warned = "NOT a security boundary" in "".join(server.err)
        assert warned != local_is_boundary()  # warned where bubblewrap is missing
        assert hand_in(server, server.tokens["Ada"], [(NAME, FULL_MARKS.read_bytes())]
                       ).status_code == 303
        until(lambda: server.job_states() == ["done"], 60, "the job is graded")
        with server.engine.connect() as connection:
            body = connection.execute(text("SELECT body FROM reports")).scalar_one()
        assert json.loads(body)["sandbox"]["backend"] == "local"
    finally:
        server.kill()
        server.engine.dispose()


class Engine:
    """What the gate finds on a Docker engine, set by the test: the image's problem,
    and the sandbox it then opens (the session's local one: no image here)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.problem: str | None = "the grading image x is missing; build it with: " + FIX
        self.sandbox = sandbox

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(image, "connect", lambda: self)
        monkeypatch.setattr(image, "problem", lambda client: self.problem)
        opened = grading.open_sandbox
        monkeypatch.setattr(grading, "open_sandbox", lambda choice, **options: (
            self.sandbox if choice == "docker" else opened(choice, **options)))


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch, sandbox: Sandbox) -> Engine:
    made = Engine(sandbox)
    made.install(monkeypatch)
    return made


@pytest.fixture
def docker_site(tmp_path: Path, engine: Engine) -> Iterator[Site]:
    """A service whose sandbox is Docker's gate (on the faked engine)."""
    from grader.service.core import Service
    from tests.service.conftest import Clock

    clock = Clock()
    site = Site(Service(Options(data=tmp_path / "data", sandbox="docker"), now=clock), clock)
    yield site
    site.service.engine.dispose()


def one_job(site: Site) -> Job:
    with site.service.sessions() as session:
        return session.scalars(select(Job)).one()


def test_the_pool_takes_no_job_while_the_image_is_missing_and_all_once_it_is_built(
        docker_site, engine):
    token, = docker_site.enrol(("Ada", "ada@example.edu"))
    pool = Pool(docker_site.service, 2)
    pool.start()
    try:
        assert docker_site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
        time.sleep(HELD_SECONDS)
        job = one_job(docker_site)
        assert (job.state, job.attempts) == ("waiting", 0)
        assert FIX in docker_site.login().get("/i/c/1").text
        engine.problem = None  # the image is built
        until(lambda: one_job(docker_site).state == "done", 60, "the waiting job is graded")
    finally:
        pool.stop()
    assert one_job(docker_site).attempts == 1
    assert "Grading waits:" not in docker_site.client.get("/i/c/1").text
    assert docker_site.service.jobs.held() is None


class Vanishing:
    """A sandbox whose image goes missing as it runs."""

    name = "docker"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def run(self, *args: object, **kwargs: object) -> None:
        self.engine.problem = "the grading image x is missing; build it with: " + FIX
        raise SandboxUnavailable("the engine refused the container: no such image")


def test_a_job_whose_image_vanishes_as_it_runs_waits_again_uncharged(docker_site, engine):
    token, = docker_site.enrol(("Ada", "ada@example.edu"))
    engine.problem, engine.sandbox = None, Vanishing(engine)
    docker_site.service.jobs.gate.look_again()
    docker_site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    job_id = docker_site.service.queue.claim()
    assert job_id is not None and docker_site.service.jobs.run(job_id)  # to be tried again
    job = one_job(docker_site)
    assert (job.state, job.attempts) == ("waiting", 0) and FIX in job.last_error
    assert docker_site.count("reports") == 0


def test_new_points_are_a_new_grader_version_with_the_same_image(tmp_path, monkeypatch):
    """Points are applied by the host: a new version (its regrade makes new reports
    showing them) that grades with the same image."""
    root = tmp_path / "exercises"
    shutil.copytree(exercises.ROOT, root)
    version, wanted = grader_version(), tasks.expected_image()
    retitle_and_repoint(root / "helpers" / "exercise.toml")
    facts = exercises.facts_hash
    monkeypatch.setattr(exercises, "facts_hash", lambda: facts(root))
    assert grader_version() != version
    assert tasks.expected_image() != wanted  # a host with other points refuses the job
    assert tasks.expected_image().startswith(f"{image.default_tag()}@")  # the same image


@pytest.fixture
def hosts_absent_image(docker_client, monkeypatch, absent_tag) -> str:
    """The web process and its hosts grade with ``absent_tag`` (set before the grid
    is made): this checkout's real tag, to give that name to later."""
    real = image.default_tag()
    monkeypatch.setenv("MINIMAX_GRADER_IMAGE", absent_tag)
    return real


def test_a_grading_host_without_its_image_refuses_saying_why_and_grades_once_it_is_built(
        hosts_absent_image, absent_tag, grid, docker_client):  # noqa: F811
    grid.worker("--sandbox", "docker")  # its default, over the grid's local
    [token] = grid.enrol()
    grid.hand_in(token, FULL_MARKS.read_bytes())
    until(lambda: FIX in (grid.jobs()[0].last_error or ""), 60, "the refusal noted on the job")
    [job] = grid.jobs()
    assert (job.state, job.attempts) == ("waiting", 0) and absent_tag in job.last_error
    page = grid.client.get("/i/c/1", headers={"x-instructor-secret": grid.secret}).text
    assert "Grading waits:" in page and FIX in page
    repository, _, tag = absent_tag.partition(":")
    docker_client.images.get(hosts_absent_image).tag(repository, tag)
    try:
        until(grid.finished(1), 120, "the job graded once the image is there")
    finally:
        docker_client.images.remove(absent_tag)
    [job] = grid.jobs()
    assert (job.state, job.attempts) == ("done", 1)


@contextlib.contextmanager
def docker_service(tmp_path: Path) -> Iterator[tuple[core.Service, Site]]:
    """A service grading in Docker with two slots, and its site, where Ada has just
    handed in the full-marks file; its gate closed and its engine let go after."""
    from tests.service.conftest import Clock

    clock = Clock()
    service = core.Service(Options(data=tmp_path / "data", sandbox="docker", workers=2),
                           now=clock)
    site = Site(service, clock)
    try:
        token, = site.enrol(("Ada", "ada@example.edu"))
        assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
        yield service, site
    finally:
        service.jobs.gate.close()
        service.engine.dispose()


def test_a_docker_gate_keeps_a_container_ready_per_grading_slot_and_leaves_none(
        docker_client, tmp_path):
    """Containers started ahead of need, one per slot (``--workers``), each for one
    submission; closing the gate, as serve and a host do when they stop, removes them."""
    with docker_service(tmp_path) as (service, _):
        assert service.jobs.drain() == 1 and service.queue.counts()["done"] == 1
        chosen = service.jobs.gate.current
        until(lambda: len(chosen.pool.ready) == 2, 120, "a container ready for each slot")
        ready = [running.container.id for _, running in chosen.pool.ready]
    # Others' containers on this engine may go while they are listed.
    left = {container.id for container in docker_client.containers.list(
        all=True, ignore_removed=True)}
    assert not left & set(ready)


def test_a_hand_in_starts_its_exercises_container_while_it_waits_its_turn(docker_client,
                                                                           tmp_path):
    """Queued, not yet graded: the gate's sandbox is already making containers for
    that exercise and its limits, so the job's wait covers the engine's start-up."""
    with docker_service(tmp_path) as (service, _):
        assert service.queue.counts()["done"] == 0  # not graded: nothing has drained it
        chosen = service.jobs.gate.current
        until(lambda: len(chosen.pool.ready) == 2, 120, "containers ready for the queued job")
        helpers = exercises.load("helpers")
        assert {key for key, _ in chosen.pool.ready} == {(helpers.id, helpers.limits)}
