"""The database and the queue: the schema, durable files, jobs that run twice,
a restart, a grader that keeps failing, regrading."""

import json
import os
import re
import threading
import time

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, update
from starlette.testclient import TestClient

from grader import grading
from grader.service import app, store, uploads
from grader.service.models import Base, Job, Report
from grader.service.pool import Pool
from grader.service.queue import MAX_ATTEMPTS
from tests.service.conftest import FULL_MARKS, NAME, replaying

ADA = ("Ada Lovelace", "ada@example.edu")


def test_the_migration_makes_the_models_schema(make):
    site = make()
    with site.service.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    make()  # a second start migrates nothing and keeps the data


def test_uploads_are_unpacked_in_the_data_folder_and_a_crashs_leftovers_go(make, tmp_path):
    site = make()
    scratch = site.service.scratch
    assert scratch.parent == tmp_path / "data" and scratch.stat().st_mode & 0o777 == 0o700
    old, new = scratch / "minimax-grader-upload-old", scratch / "minimax-grader-upload-new"
    for folder in (old, new):
        folder.mkdir()
        (folder / NAME).write_bytes(FULL_MARKS.read_bytes())
    long_ago = time.time() - store.STALE_SECONDS - 60
    os.utime(old, (long_ago, long_ago))
    again = make()  # a restart: what a crash left goes, an upload under way stays
    assert sorted(scratch.iterdir()) == [new]
    helpers = again.service.exercises["helpers"]
    taken = uploads.take(helpers, [(NAME, FULL_MARKS.read_bytes())], again.service.scratch)
    assert taken.files == {NAME: FULL_MARKS.read_bytes()} and sorted(scratch.iterdir()) == [new]


def test_files_are_stored_by_content_once(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    data = FULL_MARKS.read_bytes()
    site.hand_in(token, (NAME, data))
    site.clock.advance(minutes=1)
    site.hand_in(token, (NAME, data))
    assert site.count("submissions") == 2 and site.service.store.count() == 1
    [first, second] = site.service.students.attempts(1)
    assert first.digest == second.digest
    assert site.service.store.get(first.files[0].sha256) == data


def test_a_job_run_twice_writes_one_report(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    job_id = site.service.queue.claim()
    site.service.jobs.run(job_id)
    site.service.jobs.run(job_id)
    assert site.count("reports") == 1
    assert site.service.queue.counts() == {"waiting": 0, "running": 0, "done": 1, "error": 0,
                                           "replaced": 0}


def test_a_job_left_running_is_graded_after_a_restart(make):
    site = make()
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert site.service.queue.claim() is not None  # and then the service stops
    assert site.service.queue.counts()["running"] == 1
    site.service.engine.dispose()

    again = make()  # the real local sandbox
    assert again.service.queue.counts()["waiting"] == 1
    assert again.service.jobs.drain() == 1
    assert '<strong class="counted">10/10</strong>' in again.client.get(f"/s/{token}").text


def test_a_grader_that_raises_three_times_gives_an_error_report(make):
    calls = []

    def broken(exercise, files):
        calls.append(files)
        raise RuntimeError("a bug in the grader")

    site = make(grade=broken)
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert site.service.jobs.drain() == MAX_ATTEMPTS
    assert calls == [{NAME: FULL_MARKS.read_bytes()}] * MAX_ATTEMPTS  # the stored files, as taken
    with site.service.sessions() as session:
        [job] = session.scalars(select(Job))
        [report] = session.scalars(select(Report))
        body = json.loads(report.body)
    assert (job.state, job.attempts) == ("error", MAX_ATTEMPTS)
    assert report.status == "error" and report.score is None and body["status"] == "error"
    page = site.client.get(f"/s/{token}").text
    assert "we could not grade this, it does not count" in page
    assert '<strong class="counted">-/10</strong>' in page
    attempt = site.client.get(f"/s/{token}/attempts/1").text
    assert "it does not count" in attempt and "RuntimeError" in attempt


def test_a_grading_the_grader_failed_is_tried_again_and_its_next_report_stands(make, graded):
    """A sandbox run that failed on the grader's side (its supervisor stopped before any
    test: no verdict) is a failed attempt, as if the grader had raised, not a report."""
    replay = replaying(graded, FULL_MARKS)
    calls = []

    def fails_once(exercise, files):
        calls.append(files)
        if len(calls) == 1:
            return grading.failed(exercise, files, "the grader failed in every test",
                                  None, exercise.limits)
        return replay(exercise, files)

    site = make(grade=fails_once)
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert site.service.jobs.drain() == 2 and len(calls) == 2
    with site.service.sessions() as session:
        [job] = session.scalars(select(Job))
        [report] = session.scalars(select(Report))
    assert (job.state, job.attempts, report.status) == ("done", 2, "graded")
    assert "the grader failed in every test" in job.last_error
    assert '<strong class="counted">10/10</strong>' in site.client.get(f"/s/{token}").text


def test_regrading_adds_this_versions_reports_and_keeps_the_old(make, graded, tmp_path):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    assert site.service.jobs.regrade(1, "helpers").queued == 0  # this version's report is there
    site.service.engine.dispose()

    newer = make(grade=replaying(graded, FULL_MARKS), version="9.9")
    assert newer.service.jobs.regrade(1, "helpers").queued == 1
    assert newer.service.jobs.regrade(1, "helpers").queued == 0  # already queued
    newer.service.jobs.drain()
    with newer.service.sessions() as session:
        versions = sorted(session.scalars(select(Report.grader_version)))
    assert len(versions) == 2 and versions[-1] == "9.9"


def test_regrading_retries_this_versions_error_reports(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    with site.service.sessions.begin() as session:
        session.execute(update(Report).values(status="error", score=None))
    assert site.service.jobs.regrade(1, "helpers").queued == 1
    site.service.jobs.drain()
    assert '<strong class="counted">10/10</strong>' in site.client.get(f"/s/{token}").text
    assert site.count("reports") == 1


def test_nothing_secret_reaches_the_log(make, graded, caplog):
    caplog.set_level("DEBUG")
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    site.login().get("/i/c/1")
    # The test's own HTTP client logs its requests; the service's side is checked.
    logged = "\n".join(record.getMessage() for record in caplog.records
                       if not record.name.startswith("httpx"))
    assert "submission 1 received" in logged
    assert token not in logged and site.secret not in logged
    assert "def " not in logged  # no file content


def test_the_pool_grades_in_its_threads_while_the_app_runs(make, graded):
    both_in = threading.Barrier(2, timeout=30)

    def grade(exercise, files):
        both_in.wait()  # two workers grade at once, or this test fails
        return graded[FULL_MARKS]

    site = make(grade=grade)
    ada, bob = site.enrol(ADA, ("Bob", "bob@example.edu"))
    pool = Pool(site.service, workers=2)
    with TestClient(app.build(site.service, pool)) as client:  # starts and stops the pool
        for token in (ada, bob):
            csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(f"/s/{token}").text)
            client.post(f"/s/{token}/submit/helpers", data={"csrf": csrf.group(1)},
                        files=[("files", (NAME, FULL_MARKS.read_bytes()))])
    # Stopping waited for the jobs being graded: both reports are in.
    assert site.count("reports") == 2
    assert site.service.queue.counts()["done"] == 2
