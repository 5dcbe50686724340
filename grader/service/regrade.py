"""A regrade seen before it counts: after a change to an exercise's suite or its
exercise.toml (a new grader version), "regrade all" grades the course's
submissions of it into held reports (``PreviewReport``), which count for nothing
while the staff look at whose score would change, old to new. Applying makes
them the submissions' reports (those still being graded count when they are);
discarding drops them and the jobs still waiting. Both are audited.

While a preview is open or discarded, a report of its grader version for one of
its submissions is held there (``held``), whichever job made it.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from grader import grading
from grader.service import audit, scores
from grader.service.models import (
    Job,
    PreviewReport,
    RegradePreview,
    Report,
    Student,
    Submission,
)
from grader.service.people import Staff
from grader.service.queue import Queue
from grader.service.refused import Refused
from grader.service.signals import Signal
from grader.service.students import Students
from grader.service.term import Term

SHOWN_IN_AUDIT = 50  # changed scores the audit entry names; the count says the rest


def held(session: Session, submission_id: int, version: str, made: grading.Report,
         now: datetime) -> bool:
    """Hold ``made`` (this version's report of the submission) in the preview that
    waits for it, if one does: whether it did (then it is no report of the
    submission's yet)."""
    waiting = session.scalar(
        select(PreviewReport).join(RegradePreview)
        .where(PreviewReport.submission_id == submission_id, PreviewReport.status.is_(None),
               RegradePreview.grader_version == version,
               RegradePreview.state.in_(("open", "discarded"))))
    if waiting is None:
        return False
    waiting.status, waiting.score, waiting.max_score = (made["status"], made["score"],
                                                       made["max_score"])
    waiting.body, waiting.created_at = json.dumps(made), now
    return True


@dataclass
class Change:
    student: Student
    old: float | None
    new: float | None


@dataclass
class Preview:
    """What a preview shows: whose counted score would change, and how far it is."""

    preview: RegradePreview
    changes: list[Change] = field(default_factory=list)
    same: int = 0  # students whose score would stay
    waiting: int = 0  # submissions still being graded
    failed: int = 0  # submissions the grader could not grade (not applied)


class Regrades:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 version: str, queue: Queue, queued: Signal[[list[int]]],
                 students: Students, term: Term, rescored: Signal[[int, str]]) -> None:
        self.sessions = sessions
        self.now = now
        self.version = version  # the grader version the preview grades with
        self.queue = queue
        self.queued = queued  # the service's signals (see core)
        self.students = students
        self.term = term
        self.rescored = rescored

    def start(self, course_id: int, exercise_id: str, force: bool, by: Staff) -> int:
        """A preview of regrading the course's submissions of the exercise (each this
        version has not graded, or all with ``force``): its id. The open one, if there
        is one already."""
        with self.sessions.begin() as session:
            found = session.scalar(select(RegradePreview.id).where(
                RegradePreview.course_id == course_id,
                RegradePreview.exercise_id == exercise_id, RegradePreview.state == "open"))
            if found is not None:
                return found
            ids = set(session.scalars(select(Submission.id).join(Student).where(
                Student.course_id == course_id, Submission.exercise_id == exercise_id,
                Submission.replaced_by.is_(None))))
            if not force:
                ids -= set(session.scalars(select(Report.submission_id).where(
                    Report.submission_id.in_(ids), Report.grader_version == self.version)))
            pending = set(session.scalars(select(Job.submission_id).where(
                Job.submission_id.in_(ids), Job.grader_version == self.version,
                Job.state.in_(("waiting", "running")))))
            preview = RegradePreview(course_id=course_id, exercise_id=exercise_id,
                                     grader_version=self.version, state="open",
                                     author=by.name, person_id=by.person.id,
                                     created_at=self.now())
            session.add(preview)
            session.flush()
            session.add_all(PreviewReport(preview_id=preview.id, submission_id=one)
                            for one in sorted(ids))
            jobs = [self.queue.new(one) for one in sorted(ids - pending)]
            session.add_all(jobs)
            session.flush()
            job_ids = [job.id for job in jobs]
            audit.record(session, self.now(), course_id, by,
                         "regrade previewed" + (" (forced)" if force else ""), exercise_id,
                         f"{len(ids)} submission(s) graded aside, under {self.version}")
            made = preview.id
        self.queued(job_ids)
        return made

    def shown(self, course_id: int, preview_id: int) -> Preview:
        """The preview's changes: each student whose counted score its reports would
        change, old and new, by name."""
        with self.sessions() as session:
            preview = self._preview(session, course_id, preview_id)
            rows = list(session.scalars(select(PreviewReport).where(
                PreviewReport.preview_id == preview.id)))
        seen = Preview(preview, waiting=sum(row.status is None for row in rows),
                       failed=sum(row.status == "error" for row in rows))
        graded = {row.submission_id: row for row in rows if row.status == "graded"}
        touched = {one.student_id for one in self._submissions(list(graded))}
        for student in self.students.of_course(course_id):
            if student.id not in touched:
                continue
            mine = self.students.attempts(student.id, preview.exercise_id)
            setting = self.term.own_setting(course_id, student.id, preview.exercise_id)
            old = scores.counted(mine, setting)
            found = scores.counting(mine, setting, graded)
            new = None if found is None else found[1]
            if old == new:
                seen.same += 1
            else:
                seen.changes.append(Change(student, old, new))
        return seen

    def apply(self, course_id: int, preview_id: int, by: Staff) -> Preview:
        """Make the preview's graded reports count (the submissions' reports of this
        version, in place of any), and those still being graded when they are."""
        seen = self.shown(course_id, preview_id)
        self._decide(seen.preview, "open")
        with self.sessions.begin() as session:
            preview = self._preview(session, course_id, preview_id)
            rows = list(session.scalars(select(PreviewReport).where(
                PreviewReport.preview_id == preview.id, PreviewReport.status == "graded")))
            ids = [row.submission_id for row in rows]
            session.execute(delete(Report).where(Report.submission_id.in_(ids),
                                                 Report.grader_version == preview.grader_version))
            session.add_all(_report(row, preview.grader_version) for row in rows)
            session.execute(delete(PreviewReport).where(PreviewReport.preview_id == preview.id,
                                                        PreviewReport.status.is_not(None)))
            preview.state = "applied"
            said = [f"{change.student.name} (#{change.student.id}) "
                    f"{_g(change.old)} to {_g(change.new)}" for change in seen.changes]
            more = len(said) - SHOWN_IN_AUDIT
            audit.record(session, self.now(), course_id, by, "regrade applied",
                         preview.exercise_id,
                         f"{len(said)} score(s) changed: " + "; ".join(said[:SHOWN_IN_AUDIT])
                         + (f"; and {more} more" if more > 0 else "")
                         + f"; {seen.waiting} still being graded count when they are")
        self.rescored(course_id, seen.preview.exercise_id)
        return seen

    def discard(self, course_id: int, preview_id: int, by: Staff) -> None:
        """Drop the preview: its reports never count; its jobs still waiting go."""
        with self.sessions.begin() as session:
            preview = self._preview(session, course_id, preview_id)
            self._decide(preview, "open")
            waiting = select(PreviewReport.submission_id).where(
                PreviewReport.preview_id == preview.id, PreviewReport.status.is_(None))
            dropped = session.execute(delete(Job).where(
                Job.submission_id.in_(waiting), Job.grader_version == preview.grader_version,
                Job.state == "waiting"))
            preview.state = "discarded"
            left = dropped.rowcount  # type: ignore[attr-defined]
            audit.record(session, self.now(), course_id, by, "regrade discarded",
                         preview.exercise_id, f"{left} waiting job(s) dropped")

    @staticmethod
    def _decide(preview: RegradePreview, state: str) -> None:
        if preview.state != state:
            raise Refused(f"this preview was {preview.state} already", 409)

    @staticmethod
    def _preview(session: Session, course_id: int, preview_id: int) -> RegradePreview:
        found = session.get(RegradePreview, preview_id)
        if found is None or found.course_id != course_id:
            raise Refused("no such regrade", 404)
        return found

    def _submissions(self, ids: list[int]) -> list[Submission]:
        with self.sessions() as session:
            return list(session.scalars(select(Submission).where(Submission.id.in_(ids))))


def _report(row: PreviewReport, version: str) -> Report:
    """A held report as the submission's own."""
    assert row.status and row.max_score is not None and row.body and row.created_at  # kept
    return Report(submission_id=row.submission_id, grader_version=version, status=row.status,
                  score=row.score, max_score=row.max_score, body=row.body,
                  created_at=row.created_at)


def _g(score: float | None) -> str:
    return "-" if score is None else f"{score:g}"
