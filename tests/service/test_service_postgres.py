"""The service on PostgreSQL, and the same checks on SQLite: migrations, the
roster, a hand-in graded by the pool, and the queue under concurrency (a job
run twice at once, workers claiming at once, a restart). The in-process suites
of the students' side, the instructor's and the queue run here once more, each
test on a new PostgreSQL database."""

import subprocess
import sys
import threading
from collections.abc import Callable

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import select, text
from starlette.testclient import TestClient

from grader.intake import Submission
from grader.service import app, db
from grader.service.models import Base, Job
from grader.service.models import Submission as SubmissionRow
from grader.service.pool import Pool
from grader.service.queue import MAX_ATTEMPTS
from tests.service import (
    test_service_instructor,
    test_service_league,
    test_service_queue,
    test_service_students,
    test_service_term,
)
from tests.service.conftest import FULL_MARKS, NAME, ROOT, replaying
from tests.service.postgres_server import database, postgres, until  # noqa: F401
from tests.service.test_league_hosts import broker  # noqa: F401  (the league suite's fixtures)
from tests.service.test_service_league import quick  # noqa: F401

ADA = ("Ada Lovelace", "ada@example.edu")
BOB = ("Bob", "bob@example.edu")
HEAD = ScriptDirectory(str(ROOT / "grader" / "service" / "migrations")).get_current_head()

globals().update({f"{name}_on_postgresql": test
                  for suite in (test_service_students, test_service_instructor,
                                test_service_queue, test_service_term, test_service_league)
                  for name, test in vars(suite).items() if name.startswith("test_")})


@pytest.fixture
def make(make, request) -> Callable:
    """conftest's ``make``, on one new PostgreSQL database unless a test names its own."""
    urls: list[str] = []  # the test's database, made at its first start

    def site(grade: Callable | None = None, clock=None, **options):
        if "database" not in options:
            if not urls:
                urls.append(request.getfixturevalue("postgres").new_database())
            options["database"] = urls[0]
        return make(grade, clock, **options)

    return site


def test_the_migrations_make_the_models_schema_once(make, database):  # noqa: F811
    site = make(database=database)
    assert site.service.engine.dialect.name == ("sqlite" if database is None else "postgresql")
    if database:  # a bare postgresql:// URL gets the driver installed with the package
        assert db.connect(database.replace("+psycopg", "")).dialect.driver == "psycopg"
    with site.service.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    site.enrol(ADA)
    site.service.engine.dispose()
    again = make(database=database)  # the second start: no migration, the data kept
    with again.service.engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == [
            (HEAD,)]
    assert again.count("students") == 1


def test_services_started_at_once_migrate_one_after_another(tmp_path, database):  # noqa: F811
    url = database or db.sqlite_url(tmp_path)
    code = "import sys\nfrom grader.service import db\ndb.migrate(db.connect(sys.argv[1]))"
    starts = [subprocess.Popen([sys.executable, "-c", code, url], cwd=ROOT,
                               stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for start in starts:
        _, said = start.communicate(timeout=60)
        assert start.returncode == 0, said
    engine = db.connect(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == [
            (HEAD,)]
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    engine.dispose()


def test_a_roster_import_adds_the_new_students_only(make, database):  # noqa: F811
    site = make(database=database)
    ada, bob = site.enrol(ADA, BOB)
    assert "Ada Lovelace" in site.client.get(f"/s/{ada}").text
    again = site.service.students.import_roster(1, [ADA, ("Cy", "cy@example.edu")])
    assert [token is None for _, token in again] == [True, False]
    assert site.count("students") == 3 and site.client.get(f"/s/{bob}").status_code == 200


def test_text_postgresql_refuses_is_kept_with_a_stand_in(make, database):  # noqa: F811
    def broken(exercise, files):
        raise RuntimeError("a message that quotes a file: \0")

    site = make(grade=broken, database=database)
    [(ada, token)] = site.service.students.import_roster(1, [("A\0da", "a\0da@example.edu")])
    assert site.service.students.by_token(token).name == "A\ufffdda"
    assert site.service.students.import_roster(1, [("A\0da", "a\0da@example.edu")])[0][1] is None
    site.service.jobs.submit(ada.id, "helpers", Submission({NAME: FULL_MARKS.read_bytes()}))
    assert site.service.jobs.drain() == MAX_ATTEMPTS
    with site.service.sessions() as session:
        [job] = session.scalars(select(Job))
    assert job.state == "error" and job.last_error.endswith("file: \ufffd")


def test_a_hand_in_is_graded_by_the_pool_and_shown(make, database):  # noqa: F811
    site = make(database=database)  # the real local sandbox
    [token] = site.enrol(ADA)
    with TestClient(app.build(site.service, Pool(site.service, workers=2)),
                    follow_redirects=False) as client:
        site.client = client
        assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
        until(lambda: site.service.queue.counts()["done"] == 1, 120, "the job is graded")
        page = client.get(f"/s/{token}").text
        assert '<strong class="counted">10/10</strong>' in page
        assert "10/10 points" in client.get(f"/s/{token}/attempts/1").text
    assert site.count("reports") == 1


def test_a_job_run_twice_at_once_keeps_one_report(make, graded, database):  # noqa: F811
    both_graded = threading.Barrier(2, timeout=30)

    def grade(exercise, files):
        both_graded.wait()  # both runs write their report at the same moment
        return replaying(graded, FULL_MARKS)(exercise, files)

    site = make(grade=grade, database=database)
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    job_id = site.service.queue.claim()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            site.service.jobs.run(job_id)
        except BaseException as exc:  # the losing writer must not crash its job
            failed.append(exc)

    runs = [threading.Thread(target=run) for _ in range(2)]
    for thread in runs:
        thread.start()
    for thread in runs:
        thread.join(60)
    assert not failed and not any(thread.is_alive() for thread in runs)
    assert site.count("reports") == 1
    assert site.service.queue.counts() == {"waiting": 0, "running": 0, "done": 1, "error": 0,
                                           "replaced": 0}


def test_workers_claiming_at_once_never_take_the_same_job(make, database):  # noqa: F811
    site = make(grade=lambda exercise, files: {}, database=database)
    students = [found.id for found, _ in site.service.students.import_roster(1,
        [(f"Student {n}", f"s{n}@example.edu") for n in range(20)])]
    taken = Submission({NAME: FULL_MARKS.read_bytes()})
    queued = {site.service.jobs.submit(student, exercise, taken)
              for student in students for exercise in ("helpers", "decision")}
    with site.service.sessions() as session:
        jobs = set(session.scalars(select(Job.id)))
    assert len(queued) == len(jobs) == 40
    start = threading.Barrier(4, timeout=30)
    claimed: list[list[int]] = [[] for _ in range(4)]

    def worker(mine: list[int]) -> None:
        start.wait()
        while (job_id := site.service.queue.claim()) is not None:
            mine.append(job_id)

    workers = [threading.Thread(target=worker, args=(mine,)) for mine in claimed]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(60)
    every = [job_id for mine in claimed for job_id in mine]
    assert len(every) == len(set(every)) == 20  # none twice; one slot a student
    with site.service.sessions() as session:
        running = list(session.scalars(select(SubmissionRow.student_id).join(
            Job, Job.submission_id == SubmissionRow.id).where(Job.state == "running")))
    assert sorted(running) == sorted(students)


def test_jobs_left_running_are_queued_again_at_a_restart(make, graded, database):  # noqa: F811
    site = make(grade=replaying(graded, FULL_MARKS), database=database)
    ada, bob = site.enrol(ADA, BOB)
    for token in (ada, bob):
        site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert site.service.queue.claim() is not None  # and then the service stops
    assert site.service.queue.counts()["running"] == 1
    site.service.engine.dispose()

    again = make(grade=replaying(graded, FULL_MARKS), database=database)
    assert again.service.queue.counts() == {"waiting": 2, "running": 0, "done": 0, "error": 0,
                                            "replaced": 0}
    assert again.service.jobs.drain() == 2
    assert again.count("reports") == 2
    assert '<strong class="counted">10/10</strong>' in again.client.get(f"/s/{ada}").text
