"""The grading queue: a job per submission to grade, as rows of the ``jobs`` table.

A job waits, runs, and ends done or error (or replaced, by a newer hand-in
that came while it waited). Who is taken next is ``fair``'s rule (round robin
over students, a few grading slots each); the takers are the pool's threads in
the web process, or the grading hosts. Every change of state is a conditional
update, so that two takers never both win and a stopped taker's job can be
put back. What a job grades, and the report it keeps, are the service's.
"""

import logging
import time
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from grader.service import fair
from grader.service.models import Job, Student, Submission

log = logging.getLogger("grader.service")

REFUSED = "refused by"  # how a grading host's refusal of a job begins (see tasks)
MAX_ATTEMPTS = 3  # a job whose grading raises this often becomes a grader-error report
TURN_SECONDS = 0.2  # how often a grading host waiting for a student's turn looks again
STATES = ("waiting", "running", "done", "error", "replaced")
NOTE_CHARS = 2000  # of a reason kept on a job
# Every job ends so: built once, with bound parameters (see fair).
FINISH = (update(Job).where(Job.id == bindparam("job"))
          .values(state=bindparam("state"), updated_at=bindparam("now")))


class Queue:
    """The jobs in the service's database, taken fairly (see the module's text)."""

    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 version: str, slots: int, played: frozenset[str] = frozenset(),
                 play_slots: int = 1) -> None:
        self.sessions = sessions
        self.now = now
        self.version = version  # the grader version new jobs grade with
        self.slots = slots  # grading slots one student's jobs may hold at once
        self.played = played  # the exercises graded by play (agents' matches) ...
        self.play_slots = play_slots  # ... whose jobs may hold this many slots at once

    def new(self, submission_id: int) -> Job:
        """A waiting job for the submission, to be added in the caller's session."""
        now = self.now()
        return Job(submission_id=submission_id, grader_version=self.version, state="waiting",
                   attempts=0, created_at=now, updated_at=now)

    def requeue_running(self) -> int:
        """Put back the jobs a stopped service left running: the count."""
        with self.sessions.begin() as session:
            result = session.execute(update(Job).where(Job.state == "running")
                                     .values(state="waiting", updated_at=self.now()))
        count: int = getattr(result, "rowcount", 0)
        if count:
            log.info("%d job(s) left running were put back in the queue", count)
        return count

    def counts(self) -> dict[str, int]:
        """How many jobs are in each state."""
        with self.sessions() as session:
            rows = session.execute(select(Job.state, func.count()).group_by(Job.state)).all()
        counts = dict.fromkeys(STATES, 0)
        counts.update({state: count for state, count in rows})
        return counts

    def jobs(self, *states: str) -> list[int]:
        """The ids of the jobs in ``states``, oldest first."""
        with self.sessions() as session:
            return list(session.scalars(select(Job.id).where(Job.state.in_(states))
                                        .order_by(Job.id)))

    def live(self, course_id: int) -> list[tuple[Job, Submission, Student]]:
        """The course's jobs that wait or run, oldest first, with what they grade."""
        with self.sessions() as session:
            return [(job, submission, student) for job, submission, student in session.execute(
                select(Job, Submission, Student)
                .join(Submission, Job.submission_id == Submission.id)
                .join(Student, Submission.student_id == Student.id)
                .where(Student.course_id == course_id, Job.state.in_(("waiting", "running")))
                .order_by(Job.id))]

    def state(self, job_id: int) -> str | None:
        with self.sessions() as session:
            return session.scalar(select(Job.state).where(Job.id == job_id))

    def running(self, job_id: int) -> tuple[int, int, datetime] | None:
        """(submission id, attempts so far, when it was queued) of a taken job; None if
        it is not running."""
        with self.sessions() as session:
            job = session.get(Job, job_id)
            return None if job is None or job.state != "running" else (
                job.submission_id, job.attempts, job.created_at)

    def refusal(self) -> str | None:
        """The latest refusal a grading host noted on a waiting job, or None."""
        with self.sessions() as session:
            return session.scalar(select(Job.last_error).where(
                Job.state == "waiting", Job.last_error.startswith(REFUSED))
                .order_by(Job.id.desc()).limit(1))

    # -- taking a job -----------------------------------------------------------------

    def claim(self) -> int | None:
        """Take the fairest waiting job (see ``fair``): its id, or None when no student
        with a free grading slot waits."""
        while (job_id := self._fairest()) is not None:
            if self._take_into(job_id, job_id, "waiting"):
                return job_id
        return None

    def take(self, job_id: int, *states: str) -> bool:
        """Take job ``job_id``'s place in the queue to grade, if it is in ``states``:
        whether it was (then the service grades what the place holds).

        Grading hosts are handed job ids in the order the jobs were queued, so a
        waiting job's place is given what ``claim`` would take (the fairest waiting
        job's submission, whose place gets this one's). While every waiting student
        holds all their slots, the host waits here for a turn: each waiting job keeps
        one place in the broker, so none is lost. A running job (sent again, its
        host died) is graded again as it is."""
        while (state := self.state(job_id)) in states:
            if state == "running":
                return self._take_into(job_id, job_id, "running")
            fairest = self._fairest()
            if fairest is None:
                time.sleep(TURN_SECONDS)
            elif self._take_into(job_id, fairest, "waiting"):
                return True
        return False

    def _fairest(self) -> int | None:
        with self.sessions() as session:
            return fair.fairest(session, self.slots, self.played, self.play_slots)

    def _take_into(self, place: int, source: int, state: str) -> bool:
        """Mark ``place`` running with ``source``'s submission, one attempt more (counted
        before grading, so that one whose grader was killed counts too): whether no
        other taker got there first."""
        try:
            with self.sessions.begin() as session:
                fair.take_into(session, place, source, state, self.now())
        except fair.Moved:
            return False
        return True

    # -- a taken job's end --------------------------------------------------------------

    def put_back(self, job_id: int, why: str | None = None) -> bool:
        """A running job waits again (its grader is gone; ``why`` is noted): whether it ran."""
        values: dict[str, object] = {"state": "waiting", "updated_at": self.now()}
        if why is not None:
            values["last_error"] = why[:NOTE_CHARS]
        with self.sessions.begin() as session:
            result = session.execute(update(Job).where(Job.id == job_id, Job.state == "running")
                                     .values(**values))
        return getattr(result, "rowcount", 0) == 1

    def note(self, job_id: int, why: str) -> None:
        """Say on the job why it is not being graded (a host refused it)."""
        with self.sessions.begin() as session:
            session.execute(update(Job).where(Job.id == job_id)
                            .values(last_error=why[:NOTE_CHARS]))

    def hold(self, job_id: int, why: str) -> None:
        """A taken job waits again, its attempt not counted: its sandbox is not there."""
        log.warning("job %d waits: %s", job_id, why)
        with self.sessions.begin() as session:
            session.execute(update(Job).where(Job.id == job_id, Job.state == "running").values(
                state="waiting", attempts=Job.attempts - 1, last_error=why[:NOTE_CHARS],
                updated_at=self.now()))

    def failed(self, job_id: int, why: str) -> bool:
        """Count a failed attempt (``why`` is noted): whether the job waits to be tried
        again; after the last one, the caller keeps a grader-error report."""
        with self.sessions.begin() as session:
            job = session.get(Job, job_id)
            assert job is not None  # a taken job is never deleted
            job.last_error = why[:NOTE_CHARS]
            job.updated_at = self.now()
            if job.attempts < MAX_ATTEMPTS:
                job.state = "waiting"
                return True
        return False

    def finish(self, session: Session, job_id: int, state: str) -> None:
        """End the job in ``state`` (done, error), in the session that keeps its report."""
        session.execute(FINISH, {"job": job_id, "state": state, "now": self.now()})
