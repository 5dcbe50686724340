"""The service and a run the machine starved: its job goes back in the queue,
uncharged in points, and is graded again; after the job's last attempt the
error report stays, for the instructor to see."""

from sqlalchemy import select

from grader import report
from grader.layouts import LAYOUTS
from grader.sandbox import Run
from grader.service.models import Job
from grader.service.models import Report as Kept
from grader.service.queue import MAX_ATTEMPTS
from tests.service.conftest import FULL_MARKS, NAME


def starved(exercise, files):
    return report.build(exercise, None, Run(backend="local", limits=exercise.limits.facts(),
                                            overloaded=True), 1, LAYOUTS["bubblewrap"])


def test_a_starved_grading_is_queued_again_and_then_graded(make, graded):
    outcomes = [starved, starved, lambda exercise, files: graded[FULL_MARKS]]
    site = make(grade=lambda exercise, files: outcomes.pop(0)(exercise, files))
    [token] = site.enrol(("Ada", "ada@example.edu"))
    assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
    assert site.service.jobs.drain() == 3
    with site.service.sessions() as session:
        [job] = session.scalars(select(Job))
        [kept] = session.scalars(select(Kept))
    assert job.state == "done" and (kept.status, kept.score) == ("graded", 10)


def test_a_grading_starved_every_time_keeps_its_error_report(make):
    site = make(grade=starved)
    [token] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert site.service.jobs.drain() == MAX_ATTEMPTS
    with site.service.sessions() as session:
        [job] = session.scalars(select(Job))
        [kept] = session.scalars(select(Kept))
    assert job.state == "error" and kept.status == "error" and kept.score is None
    assert "too busy" in job.last_error
