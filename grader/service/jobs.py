"""The grading of hand-ins: a submission stored and queued (within the student's
storage quota), a taken job graded and its report kept, the queue drained in this
thread, and regrades.

A job grades the stored files as the upload's intake took them, through
``grading.grade_taken``; its states are the service's :class:`~grader.service.queue.Queue`'s.
"""

import hashlib
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from grader import grading, intake
from grader import sandbox as sandboxes
from grader.exercises import Exercise
from grader.report import overloaded as starved
from grader.sandbox import Sandbox
from grader.service import audit, fair, logs, regrade
from grader.service.gate import Gate
from grader.service.kept import Kept
from grader.service.metrics import RETRIED_AFTER_LOAD, Metrics
from grader.service.models import Job, Report, StoredFile, Student, Submission
from grader.service.options import Options
from grader.service.people import Staff
from grader.service.queue import MAX_ATTEMPTS, Queue
from grader.service.refused import Refused
from grader.service.signals import Signal
from grader.service.store import Store
from grader.service.term import Term

log = logging.getLogger("grader.service")

# Grades a stored hand-in's files: the gate's sandbox, or a test's stand-in.
Grade = Callable[[Exercise, dict[str, bytes]], grading.Report]

TO_GRADE = (select(Submission).where(Submission.id == bindparam("id"))
            .options(selectinload(Submission.files)))

STOPPED = "the service stopped while grading it: graded again, uncharged"


class Held(Exception):
    """The sandbox can't be used now (the grading image is missing): the job waits."""


class Jobs:
    def __init__(self, *, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 options: Options, exercises: dict[str, Exercise], queue: Queue,
                 store: Store, metrics: Metrics, term: Term, grade: Grade | None,
                 gate: Gate | None, queued: Signal[[list[int]]], reported: Signal[[]]) -> None:
        self.sessions = sessions
        self.now = now
        self.options = options  # the version reports are kept under, the quota
        self.exercises = exercises
        self.queue = queue
        self.store = store
        self.metrics = metrics
        self.term = term  # whether a hand-in is taken now
        self.gate = gate
        self._grade = grade or self._grade_in_sandbox
        self._submitting = threading.Lock()  # one student's check-then-insert at a time
        self.queued = queued  # the service's signals (see core)
        self.reported = reported
        # Reports this process has kept, per student: a student's page waiting for theirs
        # looks again when one is kept (see app's status).
        self.reports_kept = Kept()
        # Set when the process stops (SIGTERM, Ctrl-C): gradings in flight are cut
        # short, their jobs put back uncharged, to be graded once, later.
        self.stopping = threading.Event()

    def close(self) -> None:
        """Let go of the sandbox (its warm containers are removed): the service stops."""
        self.stopping.set()
        if self.gate:
            self.gate.close()

    @property
    def sandbox(self) -> Sandbox | None:
        """The sandbox this process grades in, as last looked at; None where it grades
        with none (a web process whose grading hosts grade)."""
        return self.gate.current if self.gate else None

    def held(self) -> str | None:
        """Why grading waits (the grading image is missing), or None: this process's
        gate's reason; with grading hosts, the latest refusal noted on a waiting job."""
        if self.gate:
            return self.gate.why
        return self.queue.refusal()

    # -- hand-ins -------------------------------------------------------------------

    def submit(self, student_id: int, exercise_id: str, taken: intake.Submission) -> int:
        """Store a submission the intake took, queue its grading: its id.

        The files are durable on disk before the rows that name them commit.
        """
        if exercise_id not in self.exercises:
            raise Refused("no such exercise", 404)
        with self._submitting:
            now = self.now()
            late = self.term.check_window(student_id, exercise_id, now)
            self._check_quota(student_id, taken.files)
            stored = {name: self.store.put(data) for name, data in taken.files.items()}
            with self.sessions.begin() as session:
                submission = Submission(student_id=student_id, exercise_id=exercise_id,
                                        received_at=now, late=late, digest=digest(taken.files))
                session.add(submission)
                session.flush()
                session.add_all(StoredFile(submission_id=submission.id, name=name, sha256=sha,
                                           size=len(taken.files[name]))
                                for name, sha in stored.items())
                replaced = fair.replace_waiting(session, submission, now)
                job = self.queue.new(submission.id)
                session.add(job)
                session.flush()
                submission_id, job_id = submission.id, job.id
        log.info("submission %d received for %s (late: %s)", submission_id, exercise_id, late)
        if replaced:
            log.info("submission %d replaces %s, which waited ungraded", submission_id,
                     ", ".join(map(str, replaced)))
        self.queued([job_id])
        if self.gate and self.gate.current:  # its container starts while the job waits
            exercise = self.exercises[exercise_id]
            sandboxes.prepare(self.gate.current, exercise, exercise.limits)
        return submission_id

    def _check_quota(self, student_id: int, files: dict[str, bytes]) -> None:
        """Refused when storing ``files`` would take the student past their quota."""
        sizes = {Store.digest(data): len(data) for data in files.values()}
        with self.sessions() as session:
            used, adding = fair.stored_bytes(session, student_id, sizes)
        quota = self.options.student_quota
        if used + adding > quota:
            raise Refused(f"your files would take more than your storage quota of "
                          f"{quota // 1024} KB (your earlier hand-ins hold {used // 1024} KB, "
                          f"this one {adding // 1024} KB more): ask your instructor", 413)

    # -- grading the queue's jobs ----------------------------------------------------

    def run(self, job_id: int) -> bool:
        """Grade a taken job's submission and keep its report: one per version, however
        often the job runs. A grader that raises, or is killed, is tried again,
        MAX_ATTEMPTS in all: whether the job waits to be tried again."""
        taken = self.queue.running(job_id)
        if taken is None:
            return False
        submission_id, attempts, queued_at = taken
        with self.sessions() as session:  # its files: what grading needs of it
            submission = session.scalar(TO_GRADE, {"id": submission_id})
        assert submission is not None  # a job's submission is never deleted
        exercise = self.exercises[submission.exercise_id]
        run = logs.JobAttempt(job_id, submission.student_id, exercise.id, attempts, queued_at,
                              self.now())
        files: dict[str, bytes] = {}
        if attempts > MAX_ATTEMPTS:  # the earlier ones never finished: their grader died
            log.error("job %d: its grader stopped %d times", job_id, MAX_ATTEMPTS)
            self._keep(job_id, submission, self._error_report(
                exercise, files, f"the grader stopped {MAX_ATTEMPTS} times"), run)
            return False
        try:
            files = {stored.name: self.store.get(stored.sha256)
                     for stored in submission.files}
            made = self._grade(exercise, files)
            # No verdict, nothing charged (the machine starved the run, or the grader
            # failed): graded again, after the others, as if the grader had raised.
            if made["status"] == "error" and self.queue.failed(job_id, made["message"]):
                self._ended(run, RETRIED_AFTER_LOAD if starved(made) else "retry")
                return True
        except Held as held:
            self.queue.hold(job_id, str(held))
            self._ended(run, "held")
            return True
        except grading.Cancelled:
            self.queue.hold(job_id, STOPPED)
            self._ended(run, "stopped")
            return True
        except Exception as exc:  # a grader bug costs this job an attempt, not the pool
            # Its type only: a message may quote the student's files (it is kept in the job).
            log.error("job %d: the grader raised %s", job_id, type(exc).__name__)
            if self.queue.failed(job_id, f"{type(exc).__name__}: {exc}"):
                self._ended(run, "retry")
                return True
            made = self._error_report(
                exercise, files, f"the grader failed {MAX_ATTEMPTS} times ({type(exc).__name__})")
        self._keep(job_id, submission, made, run)
        return False

    def _ended(self, run: logs.JobAttempt, outcome: str,
               made: grading.Report | None = None) -> None:
        """Log and count a grading run that ended (see ``logs`` and ``metrics``)."""
        now = self.now()
        run.ended(outcome, now, made)
        self.metrics.ran(run, outcome, now, made)

    def _grade_in_sandbox(self, exercise: Exercise, files: dict[str, bytes]) -> grading.Report:
        """The report of a stored hand-in, graded in the gate's sandbox; Held while there
        is none, or when the run failed for want of it (the image went missing meanwhile)."""
        assert self.gate is not None  # opened with the service
        chosen = self.gate.sandbox()
        if chosen is None:
            raise Held(self.gate.why)
        made = grading.grade_taken(exercise, files, chosen, exercise.limits,
                                   cancel=self.stopping)
        if made["status"] == "error" and self.gate.look_again() is None:
            raise Held(self.gate.why)
        return made

    def _error_report(self, exercise: Exercise, files: dict[str, bytes],
                      why: str) -> grading.Report:
        return grading.failed(exercise, files, why, self.sandbox, exercise.limits)

    def _keep(self, job_id: int, submission: Submission, made: grading.Report,
              run: logs.JobAttempt) -> None:
        state = "error" if made["status"] == "error" else "done"
        try:
            with self.sessions.begin() as session:
                if not regrade.held(session, submission.id, self.options.version, made,
                                    self.now()):  # a regrade's preview looks at it first
                    session.add(Report(submission_id=submission.id,
                                       grader_version=self.options.version,
                                       status=made["status"], score=made["score"],
                                       max_score=made["max_score"], body=json.dumps(made),
                                       created_at=self.now()))
                self.queue.finish(session, job_id, state)
        except IntegrityError:  # this version's report is there already: keep that one
            with self.sessions.begin() as session:
                self.queue.finish(session, job_id, state)
        self.reports_kept.add(submission.student_id)
        self._ended(run, state, made)
        self.reported()

    def drain(self) -> int:
        """Grade waiting jobs in this thread until none is left: how many ran."""
        ran = 0
        while (job_id := self.queue.claim()) is not None:
            self.run(job_id)
            ran += 1
        return ran

    # -- regrades ---------------------------------------------------------------------

    def regrade(self, course_id: int, exercise_id: str, student_id: int | None = None,
                force: bool = False, by: Staff | None = None) -> "Regraded":
        """Queue the course's submissions of the exercise (one student's, when given)
        to be graded again, see ``regrade_submissions``."""
        query = (select(Submission.id).join(Student)
                 .where(Student.course_id == course_id, Submission.exercise_id == exercise_id,
                        Submission.replaced_by.is_(None)))
        if student_id is not None:
            query = query.where(Submission.student_id == student_id)
        with self.sessions() as session:
            ids = list(session.scalars(query))
        target = exercise_id if student_id is None else f"{exercise_id} of student #{student_id}"
        return self.regrade_submissions(ids, force, by, course_id, target)

    def regrade_submissions(self, ids: list[int], force: bool = False,
                            by: Staff | None = None, course_id: int | None = None,
                            target: str = "") -> "Regraded":
        """Queue each submission that has no report of this grader version (its error
        report, if any, is dropped to be made again), or, with ``force``, whose report
        of this version is dropped to be made again. Reports of other versions are
        kept; a submission already waiting is not queued twice. Audited in
        ``course_id`` as ``target`` when given."""
        version = self.options.version
        with self.sessions.begin() as session:
            this_version = Report.submission_id.in_(ids) & (Report.grader_version == version)
            dropped = this_version if force else this_version & (Report.status == "error")
            session.execute(delete(Report).where(dropped))
            done = set(session.scalars(select(Report.submission_id).where(this_version)))
            pending = set(session.scalars(select(Job.submission_id).where(
                Job.submission_id.in_(ids), Job.grader_version == version,
                Job.state.in_(("waiting", "running")))))
            jobs = [self.queue.new(i) for i in ids if i not in done and i not in pending]
            session.add_all(jobs)
            session.flush()
            job_ids = [job.id for job in jobs]
            made = Regraded(len(job_ids), len(done), len(pending - done))
            if course_id is not None:
                audit.record(session, self.now(), course_id, by,
                             "regrade forced" if force else "regrade", target, str(made))
        self.metrics.regrades.inc(len(job_ids))
        self.queued(job_ids)
        return made


@dataclass
class Regraded:
    """What a regrade did: how many were queued, and why the others were not."""

    queued: int
    current: int  # graded already by this grader version
    waiting: int  # already waiting or being graded

    def __str__(self) -> str:
        said = [f"{self.queued} submission(s) queued to be graded again"]
        if self.current:
            said.append(f"{self.current} not queued: graded already by this grader version "
                        "(the same grader gives the same report; force a new grading to "
                        "grade them anyway)")
        if self.waiting:
            said.append(f"{self.waiting} not queued: waiting or being graded already")
        return "; ".join(said) + "."


def digest(files: dict[str, bytes]) -> str:
    """One sha256 for a submission's files, names and contents both."""
    whole = hashlib.sha256()
    for name in sorted(files):
        whole.update(f"{name}\0{hashlib.sha256(files[name]).hexdigest()}\n".encode())
    return whole.hexdigest()
