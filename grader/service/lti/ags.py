"""Scores back to the LMS (Assignment and Grade Services).

Every hand-in and every kept report may change what the LMS should show (a
hand-in waits: ``Pending``; graded: ``FullyGraded`` with the counted score,
scores.counted: best or last, late penalty applied), and so may a change of the
exercise's rules in a course (the service's ``rescored``). The poster looks at
the hand-ins and reports kept since it last looked (watermarks in the service's
settings, so a restart misses none and reports written by grading hosts count
too), works out each touched student's state for the exercise, and records a
post for each assignment (line item) of that exercise in the LMS courses of the
student's course they were seen in, unless the same was sent there already. A
post carries the report's summary as its comment (or the manual score's) and the
hand-in's time. The posts are sent from that record, and a failed one
is tried again later (RETRY_SECONDS), then kept as failed with its error: the
instructor's LTI page shows what was sent, when, and what was not.
"""

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector
from pylti1p3.tool_config.dict import ToolConfDict
from sqlalchemy import func, select, update

from grader.service import overrides, pages, rubrics, scores
from grader.service.core import Service
from grader.service.lti.adapter import TimedSession
from grader.service.models import (
    LtiContext,
    LtiMember,
    LtiPlatform,
    LtiResource,
    LtiScorePost,
    LtiUser,
    Report,
    Setting,
    Student,
    Submission,
)

log = logging.getLogger("grader.service")
POLL_SECONDS = 2.0  # how often the poster looks without being woken
RETRY_SECONDS = (2, 10, 60, 300)  # after the 1st, 2nd, ... failure; then it has failed
SEEN = "lti_reports_seen"  # the newest report id the poster has looked at
HANDED = "lti_submissions_seen"  # and the newest submission id
COMMENT = 1000  # characters of a score's comment


class Poster:
    def __init__(self, service: Service, config: Callable[[], ToolConfDict]) -> None:
        self.service = service
        self.config = config
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._rescore: set[tuple[int, str]] = set()  # courses' exercises whose rules changed
        self._lock = threading.Lock()

    def start(self) -> None:
        self.service.reported.listen(self._wake.set)
        self.service.rescored.listen(self.rescore)
        self._thread = threading.Thread(target=self._loop, name="lti-poster", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread:
            self._thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.scan()
                self.rescan()
                self.send_due()
            except Exception:  # the database or the platform went away: look again later
                log.exception("the LTI poster could not post scores")
            self._wake.wait(POLL_SECONDS)

    # -- what to send ----------------------------------------------------------------

    def scan(self) -> int:
        """Record posts for the hand-ins and reports kept since the last scan: how many."""
        with self.service.sessions() as session:
            seen, handed = (int(mark.value) if (mark := session.get(Setting, key)) else 0
                            for key in (SEEN, HANDED))
            newest = session.scalar(select(func.max(Report.id))) or 0
            newest_hand_in = session.scalar(select(func.max(Submission.id))) or 0
            touched = set(session.execute(
                select(Submission.student_id, Submission.exercise_id).join(Report)
                .where(Report.id > seen, Report.id <= newest)))
            touched |= set(session.execute(
                select(Submission.student_id, Submission.exercise_id)
                .where(Submission.id > handed, Submission.id <= newest_hand_in)))
        recorded = sum(self.record(student, exercise) for student, exercise in sorted(touched))
        with self.service.sessions.begin() as session:
            session.merge(Setting(key=SEEN, value=str(newest)))
            session.merge(Setting(key=HANDED, value=str(newest_hand_in)))
        return recorded

    def rescore(self, course_id: int, exercise_id: str) -> None:
        """Look again at every score of the course's exercise (its rules changed), soon."""
        with self._lock:
            self._rescore.add((course_id, exercise_id))
        self._wake.set()

    def rescan(self) -> int:
        """Record posts for the exercises whose rules changed: how many."""
        with self._lock:
            changed, self._rescore = self._rescore, set()
        recorded = 0
        for course_id, exercise_id in sorted(changed):
            with self.service.sessions() as session:
                students = list(session.scalars(
                    select(Student.id).where(Student.course_id == course_id,
                                             Student.lti_user_id.is_not(None))))
            recorded += sum(self.record(student, exercise_id) for student in students)
        return recorded

    def record(self, student_id: int, exercise_id: str) -> int:
        """Record the student's state for each line item of the exercise they were seen
        in, where it is not what was last sent: how many were recorded."""
        exercise = self.service.exercises.get(exercise_id)
        with self.service.sessions() as session:
            student = session.get(Student, student_id)
            resources = [] if student is None or student.lti_user_id is None else list(
                session.scalars(
                    select(LtiResource.id).join(LtiContext)
                    .join(LtiMember, LtiMember.context_id == LtiResource.context_id)
                    .where(LtiContext.course_id == student.course_id,
                           LtiMember.user_id == student.lti_user_id,
                           LtiResource.exercise_id == exercise_id,
                           LtiResource.endpoint.is_not(None)).distinct()))
        if exercise is None or student is None or not resources:  # no LMS knows them here
            return 0
        state = self._state(student, exercise.id, exercise.max_score)
        if state is None:
            return 0
        now = self.service.now()
        recorded = 0
        with self.service.sessions.begin() as session:
            for resource_id in resources:
                last = session.scalar(
                    select(LtiScorePost).where(LtiScorePost.resource_id == resource_id,
                                               LtiScorePost.student_id == student_id,
                                               LtiScorePost.state != "superseded")
                    .order_by(LtiScorePost.id.desc()).limit(1))
                if last is not None and last.state != "failed" and \
                        (last.score_given, last.grading_progress) == \
                        (state.score_given, state.grading_progress):
                    continue
                session.execute(update(LtiScorePost).where(
                    LtiScorePost.resource_id == resource_id,
                    LtiScorePost.student_id == student_id,
                    LtiScorePost.state == "waiting").values(state="superseded"))
                session.add(LtiScorePost(resource_id=resource_id, student_id=student_id,
                                         score_given=state.score_given,
                                         score_maximum=exercise.max_score,
                                         grading_progress=state.grading_progress,
                                         comment=state.comment,
                                         submitted_at=state.submitted_at,
                                         state="waiting", attempts=0, created_at=now,
                                         next_try_at=now))
                recorded += 1
        if recorded:
            self._wake.set()
        return recorded

    def _state(self, student: Student, exercise_id: str, max_score: float) -> "Progress | None":
        """What the LMS should show of the student's exercise now; None before a hand-in."""
        attempts = self.service.students.attempts(student.id, exercise_id, bodies=True)
        if not attempts:
            return None
        found = scores.counting(attempts, self.service.term.own_setting(
            student.course_id, student.id, exercise_id))
        waiting = any(pages.state(attempt) == "waiting" for attempt in attempts)
        if found is None:
            return Progress(None, "Pending", "Handed in: waiting to be graded.",
                            attempts[-1].received_at) if waiting else None
        counted, score = found
        comment = _comment(counted, score, max_score)
        if waiting:
            return Progress(score, "Pending", f"A newer hand-in waits to be graded. {comment}",
                            attempts[-1].received_at)
        return Progress(score, "FullyGraded", comment, counted.received_at)

    # -- sending -----------------------------------------------------------------------

    def send_due(self) -> int:
        """Send the waiting posts whose time has come: how many were sent."""
        with self.service.sessions() as session:
            due = list(session.scalars(select(LtiScorePost.id).where(
                LtiScorePost.state == "waiting", LtiScorePost.next_try_at <= self.service.now())
                .order_by(LtiScorePost.id)))
        return sum(self.send(post_id) for post_id in due)

    def send(self, post_id: int) -> bool:
        with self.service.sessions() as session:
            post = session.get(LtiScorePost, post_id)
            assert post is not None
            resource, context, platform, user = session.execute(
                select(LtiResource, LtiContext, LtiPlatform, LtiUser)
                .join(LtiContext, LtiContext.id == LtiResource.context_id)
                .join(LtiPlatform, LtiPlatform.id == LtiContext.platform_id)
                .join(LtiMember, LtiMember.context_id == LtiContext.id)
                .join(LtiUser, LtiUser.id == LtiMember.user_id)
                .join(Student, Student.lti_user_id == LtiUser.id)
                .where(LtiResource.id == post.resource_id,
                       Student.id == post.student_id)).first() or (None,) * 4
        try:
            if resource is None or platform is None or user is None or context is None:
                raise ValueError("the assignment or the student is no longer in the course")
            self._put(post, resource, platform, user.sub)
        except Exception as exc:  # the platform refused or did not answer: try again later
            self._failed(post, f"{type(exc).__name__}: {_said(exc)}")
            return False
        with self.service.sessions.begin() as session:
            session.execute(update(LtiScorePost).where(LtiScorePost.id == post.id).values(
                state="sent", attempts=post.attempts + 1, sent_at=self.service.now(),
                last_error=None))
        log.info("LTI: %s score of student %d sent (post %d)", post.grading_progress,
                 post.student_id, post.id)
        return True

    def _put(self, post: LtiScorePost, resource: LtiResource, platform: LtiPlatform,
             sub: str) -> None:
        registration = self.config().find_registration_by_params(platform.issuer,
                                                                 platform.client_id)
        endpoint = json.loads(resource.endpoint or "{}")
        service = AssignmentsGradesService(ServiceConnector(registration, TimedSession()),
                                           endpoint)
        graded = post.grading_progress == "FullyGraded"
        grade = (Grade().set_user_id(sub).set_grading_progress(post.grading_progress)
                 .set_activity_progress("Completed" if graded else "Submitted")
                 .set_timestamp(datetime.now(UTC).isoformat()))
        if post.score_given is not None:
            grade.set_score_given(post.score_given).set_score_maximum(post.score_maximum)
        if post.comment:
            grade.set_comment(post.comment)
        if post.submitted_at is not None:  # AGS 2.0's submission times
            grade.set_extra_claims({"submission": {
                "submittedAt": post.submitted_at.replace(tzinfo=UTC).isoformat()}})
        item = None
        if not endpoint.get("lineitem"):  # no line item of its own: find or make one
            item = (LineItem().set_tag(resource.exercise_id).set_label(resource.exercise_id)
                    .set_score_maximum(post.score_maximum)
                    .set_resource_id(resource.exercise_id))
        service.put_grade(grade, item)

    def _failed(self, post: LtiScorePost, why: str) -> None:
        attempts = post.attempts + 1
        last = attempts > len(RETRY_SECONDS)
        wait = timedelta(seconds=RETRY_SECONDS[min(attempts, len(RETRY_SECONDS)) - 1])
        with self.service.sessions.begin() as session:
            session.execute(update(LtiScorePost).where(LtiScorePost.id == post.id).values(
                attempts=attempts, last_error=why[:2000],
                state="failed" if last else "waiting",
                next_try_at=self.service.now() + wait))
        log.warning("LTI: score post %d %s (%s)", post.id,
                    "failed for good" if last else "failed, tried again later", why[:200])


@dataclass
class Progress:
    """What a post says: the score that counts (None while a first hand-in waits), the
    AGS grading progress, the comment, and the hand-in's time."""

    score_given: float | None
    grading_progress: str
    comment: str
    submitted_at: datetime


def _comment(counted: Submission, score: float, max_score: float) -> str:
    """The counted attempt's summary: the manual score's note, or the report's message."""
    manual = overrides.manual(counted.notes)
    if manual is not None:
        said = f"Set by {manual.author}: {manual.text}"
    else:
        report = scores.shown(counted)
        said = str(json.loads(report.body).get("message", "")) if report else ""
        if report and report.score is not None and counted.marks:
            said = f"{rubrics.said(report.score, report.max_score, counted.marks)}. {said}"
    return f"{score:g}/{max_score:g}. {said}".strip()[:COMMENT]


def _said(exc: Exception) -> str:
    """An exception's words; a platform's refusal with its status and body's start."""
    response = getattr(exc, "response", None)
    if response is not None and hasattr(response, "status_code"):
        return f"HTTP {response.status_code}: {response.text[:300]}"
    return str(exc)[:500]
