"""The queue's fairness rules, as queries on the service's tables.

* Round robin over students: the waiting job taken next is one of the student
  whose last job was taken longest ago (their ``served`` turn is the lowest),
  not the oldest job. A student holds at most ``slots`` grading slots at once,
  so that a student whose files never return can't fill the pool; and the
  agents' matches hold at most ``play_slots`` of them, so that exercises' hand-ins
  are graded while agents play.
* One waiting hand-in per student and exercise: a newer hand-in replaces one
  that waits ungraded; the replaced one is kept, marked, and never counts.
* A storage quota per student, over the distinct files they stored.

Takes are conditional updates, so that two takers (threads of the pool,
grading hosts) never both win, and a loser sees :class:`Moved`. The queries
asked for every job are built once, with bound parameters: SQLAlchemy takes
longer to build one than the database takes to answer it.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import Select, Update, bindparam, func, or_, select, update
from sqlalchemy.orm import Session, aliased

from grader.service.models import Job, StoredFile, Student, Submission

# What a job grades: it moves with the job's place in the queue (see ``take_into``).
CONTENT = (Job.submission_id, Job.grader_version, Job.attempts, Job.last_error, Job.created_at)


class Moved(Exception):
    """A job was not as read: another taker got there first."""


def _running(*where: Any) -> Any:
    """How many jobs run whose submission is as ``where`` says (a scalar subquery)."""
    running, theirs = aliased(Job), aliased(Submission)
    return (select(func.count()).select_from(running)
            .join(theirs, theirs.id == running.submission_id)
            .where(running.state == "running", *(test(theirs) for test in where))
            .scalar_subquery())


def _fairest() -> Select[int]:
    """The id of the waiting job to take next, for ``slots`` (bound); a job of an
    exercise graded by play (``played``, bound) only while fewer than ``play_slots``
    (bound) of those run."""
    played: Any = bindparam("played", expanding=True)
    busy = _running(lambda theirs: theirs.student_id == Submission.student_id)
    playing = _running(lambda theirs: theirs.exercise_id.in_(played))
    return (select(Job.id).join(Submission, Submission.id == Job.submission_id)
            .join(Student, Student.id == Submission.student_id)
            .where(Job.state == "waiting", busy < bindparam("slots"),
                   or_(Submission.exercise_id.not_in(played),
                       playing < bindparam("play_slots")))
            .order_by(Student.served, Job.id).limit(1))


FAIREST = _fairest()
# The jobs ``ids`` (bound) as ``take_into`` reads them.
READ = select(Job.id, Job.state, *CONTENT).where(Job.id.in_(bindparam("ids", expanding=True)))
# What ``take_into`` checks is still as it read it, beside the job's id and state.
CHECKED = [column for column in CONTENT if column.key not in ("last_error", "created_at")]
# Job ``was_id`` (bound), if it still holds what was read (``was_...``), gets what
# another held (``new_...``); TAKE marks it running too.
MOVE = (update(Job)
        .where(Job.id == bindparam("was_id"), Job.state == bindparam("was_state"),
               *(column == bindparam(f"was_{column.key}") for column in CHECKED))
        .values(updated_at=bindparam("now"),
                **{column.key: bindparam(f"new_{column.key}") for column in CONTENT}))
TAKE = MOVE.values(state="running")
# The turn of submission ``submission``'s student (bound) becomes the newest.
SERVED = (update(Student)
          .where(Student.id == select(Submission.student_id)
                 .where(Submission.id == bindparam("submission")).scalar_subquery())
          .values(served=select(func.max(Student.served)).scalar_subquery() + 1))
# The student's (bound) hand-ins of the exercise, other than ``newer``, as late as it,
# that wait never graded nor replaced.
WAITING_ALIKE = select(Submission.id).where(
    Submission.student_id == bindparam("student"), Submission.exercise_id == bindparam("exercise"),
    Submission.id != bindparam("newer"), Submission.late == bindparam("late"),
    Submission.replaced_by.is_(None),
    Submission.id.in_(select(Job.submission_id).where(Job.state == "waiting")),
    ~Submission.reports.any())
# The student's distinct files (bound), as sha256 and size.
_MINE = (select(StoredFile.sha256, StoredFile.size)
         .join(Submission, Submission.id == StoredFile.submission_id)
         .where(Submission.student_id == bindparam("student")).distinct().subquery())
USED = select(func.coalesce(func.sum(_MINE.c.size), 0))
KNOWN = select(_MINE.c.sha256).where(_MINE.c.sha256.in_(bindparam("digests", expanding=True)))


def fairest(session: Session, slots: int, played: frozenset[str] = frozenset(),
            play_slots: int = 1) -> int | None:
    """The id of the waiting job to take next, or None when no student with a free
    slot waits. Jobs of the exercises ``played`` (graded by play: an agent's match
    holds its slot for minutes) hold at most ``play_slots`` slots at once, so that
    the others' keep flowing."""
    return session.scalar(FAIREST, {"slots": slots, "played": sorted(played),
                                    "play_slots": play_slots})


def take_into(session: Session, place: int, source: int, state: str, now: datetime) -> None:
    """Mark job ``place`` (now in ``state``) running with what job ``source`` (waiting)
    grades, one attempt more; ``source`` gets what ``place`` held. The student's turn
    becomes the newest. Moved when either job is not as read."""
    rows = {row.id: row._asdict() for row in session.execute(READ, {"ids": [place, source]})}
    if place not in rows or source not in rows or rows[place]["state"] != state or (
            source != place and rows[source]["state"] != "waiting"):
        raise Moved
    taken = _content(rows[source])
    _set(session, TAKE, rows[place], now, {**taken, "attempts": taken["attempts"] + 1})
    if source != place:
        _set(session, MOVE, rows[source], now, _content(rows[place]))
    session.execute(SERVED, {"submission": taken["submission_id"]})


def _content(row: dict[str, Any]) -> dict[str, Any]:
    return {column.key: row[column.key] for column in CONTENT}


def _set(session: Session, statement: Update, was: dict[str, Any], now: datetime,
         content: dict[str, Any]) -> None:
    """Give job ``was["id"]`` ``content`` with ``statement`` (MOVE, or TAKE, which marks
    it running) if it still holds what was read: else Moved."""
    result = session.execute(statement, {
        "was_id": was["id"], "was_state": was["state"], "now": now,
        **{f"was_{column.key}": was[column.key] for column in CHECKED},
        **{f"new_{key}": value for key, value in content.items()}})
    if getattr(result, "rowcount", 0) != 1:
        raise Moved


def replace_waiting(session: Session, newer: Submission, now: datetime) -> list[int]:
    """Replace the student's hand-ins of the exercise that wait, never graded, by
    ``newer``: the ids replaced. A late hand-in replaces only late ones, so that an
    attempt made in time is never lost to a late one."""
    older = list(session.scalars(WAITING_ALIKE, {
        "student": newer.student_id, "exercise": newer.exercise_id, "newer": newer.id,
        "late": newer.late}))
    replaced = []
    for old in older:
        result = session.execute(update(Job).where(Job.submission_id == old,
                                                   Job.state == "waiting")
                                 .values(state="replaced", updated_at=now))
        if getattr(result, "rowcount", 0):  # else a taker got it first: it is graded
            session.execute(update(Submission).where(Submission.id == old)
                            .values(replaced_by=newer.id))
            replaced.append(old)
    return replaced


def stored_bytes(session: Session, student_id: int, sizes: dict[str, int]) -> tuple[int, int]:
    """(bytes the student's files hold, bytes ``sizes`` (sha256 -> size) would add):
    a file counts once however often it is handed in."""
    used = session.scalar(USED, {"student": student_id}) or 0
    known = set(session.scalars(KNOWN, {"student": student_id, "digests": list(sizes)}))
    return used, sum(size for sha, size in sizes.items() if sha not in known)
