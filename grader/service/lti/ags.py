"""Scores back to the LMS (Assignment and Grade Services).

Every kept report may change a counted score (scores.counted: best or last,
late penalty applied), and so may a change of the exercise's rules (the
service's ``rescored``). The poster looks at the reports kept since it last
looked (a watermark in the service's settings, so a restart misses none and
reports written by grading hosts count too), works out each touched student's
counted score for the exercise, and records a post for each course assignment
(line item) of that exercise the student was seen in, unless the same score
was sent there already. The posts are sent from that record, and a failed one
is tried again later (RETRY_SECONDS), then kept as failed with its error: the
instructor's LTI page shows what was sent, when, and what was not.
"""

import json
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector
from pylti1p3.tool_config.dict import ToolConfDict
from sqlalchemy import func, select, update

from grader.service import scores
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
    Submission,
)

log = logging.getLogger("grader.service")
POLL_SECONDS = 2.0  # how often the poster looks without being woken
RETRY_SECONDS = (2, 10, 60, 300)  # after the 1st, 2nd, ... failure; then it has failed
SEEN = "lti_reports_seen"  # the newest report id the poster has looked at


class Poster:
    def __init__(self, service: Service, config: Callable[[], ToolConfDict]) -> None:
        self.service = service
        self.config = config
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._rescore: set[str] = set()  # exercises whose rules changed
        self._lock = threading.Lock()

    def start(self) -> None:
        self.service.reported = self._wake.set
        self.service.rescored = self.rescore
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
        """Record posts for the reports kept since the last scan: how many."""
        with self.service.sessions() as session:
            mark = session.get(Setting, SEEN)
            seen = int(mark.value) if mark else 0
            newest = session.scalar(select(func.max(Report.id))) or 0
            touched = set(session.execute(
                select(Submission.student_id, Submission.exercise_id).join(Report)
                .where(Report.id > seen, Report.id <= newest)))
        recorded = sum(self.record(student, exercise) for student, exercise in sorted(touched))
        with self.service.sessions.begin() as session:
            session.merge(Setting(key=SEEN, value=str(newest)))
        return recorded

    def rescore(self, exercise_id: str) -> None:
        """Look again at every score of the exercise (its rules changed), soon."""
        with self._lock:
            self._rescore.add(exercise_id)
        self._wake.set()

    def rescan(self) -> int:
        """Record posts for the exercises whose rules changed: how many."""
        with self._lock:
            exercises, self._rescore = self._rescore, set()
        with self.service.sessions() as session:
            pairs = session.execute(
                select(LtiUser.student_id, LtiResource.exercise_id).distinct()
                .join(LtiMember, LtiMember.user_id == LtiUser.id)
                .join(LtiResource, LtiResource.context_id == LtiMember.context_id)
                .where(LtiResource.exercise_id.in_(exercises),
                       LtiUser.student_id.is_not(None))).all()
        return sum(self.record(student, exercise) for student, exercise in sorted(pairs)
                   if student is not None)

    def record(self, student_id: int, exercise_id: str) -> int:
        """Record the student's counted score for each line item of the exercise they
        were seen in, where it is not what was last sent: how many were recorded."""
        exercise = self.service.exercises.get(exercise_id)
        with self.service.sessions() as session:
            resources = list(session.scalars(
                select(LtiResource.id).join(LtiMember, LtiMember.context_id ==
                                            LtiResource.context_id)
                .join(LtiUser, LtiUser.id == LtiMember.user_id)
                .where(LtiUser.student_id == student_id,
                       LtiResource.exercise_id == exercise_id,
                       LtiResource.endpoint.is_not(None)).distinct()))
        if exercise is None or not resources:  # a student no LMS knows: nothing to score
            return 0
        counted = scores.counted(self.service.attempts(student_id, exercise_id),
                                 self.service.setting(exercise_id))
        if counted is None:
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
                if last is not None and last.score_given == counted and last.state != "failed":
                    continue
                session.execute(update(LtiScorePost).where(
                    LtiScorePost.resource_id == resource_id,
                    LtiScorePost.student_id == student_id,
                    LtiScorePost.state == "waiting").values(state="superseded"))
                session.add(LtiScorePost(resource_id=resource_id, student_id=student_id,
                                         score_given=counted, score_maximum=exercise.max_score,
                                         state="waiting", attempts=0, created_at=now,
                                         next_try_at=now))
                recorded += 1
        if recorded:
            self._wake.set()
        return recorded

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
                .where(LtiResource.id == post.resource_id,
                       LtiUser.student_id == post.student_id)).first() or (None,) * 4
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
        log.info("LTI: score %g/%g of student %d sent (post %d)", post.score_given,
                 post.score_maximum, post.student_id, post.id)
        return True

    def _put(self, post: LtiScorePost, resource: LtiResource, platform: LtiPlatform,
             sub: str) -> None:
        registration = self.config().find_registration_by_params(platform.issuer,
                                                                 platform.client_id)
        endpoint = json.loads(resource.endpoint or "{}")
        service = AssignmentsGradesService(ServiceConnector(registration, TimedSession()),
                                           endpoint)
        grade = (Grade().set_score_given(post.score_given)
                 .set_score_maximum(post.score_maximum).set_user_id(sub)
                 .set_activity_progress("Completed").set_grading_progress("FullyGraded")
                 .set_timestamp(datetime.now(UTC).isoformat()))
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


def _said(exc: Exception) -> str:
    """An exception's words; a platform's refusal with its status and body's start."""
    response = getattr(exc, "response", None)
    if response is not None and hasattr(response, "status_code"):
        return f"HTTP {response.status_code}: {response.text[:300]}"
    return str(exc)[:500]
