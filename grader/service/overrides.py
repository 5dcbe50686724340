"""Accommodations and appeals: one student's own deadlines for an exercise, and
the notes on an attempt (an instructor's comment, a manual score that stands for
the exercise until it is removed, a student's regrade request and its answer).

Functions raise ValueError with a sentence for the user when a value is wrong.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from grader.service.models import (
    NOTE_KINDS,
    ExerciseSetting,
    Extension,
    Note,
    Student,
    Submission,
)

MAX_NOTE = 2000  # characters of a comment, a request or an answer
# A student's regrade requests: one open per attempt, and this many a day in all.
REQUESTS_A_DAY = 5
REMOVED = "manual score removed: the grader's scores count again"


def extension(session: Session, student_id: int, exercise_id: str) -> Extension | None:
    return session.get(Extension, (student_id, exercise_id))


def own_setting(setting: ExerciseSetting, extended: Extension | None) -> ExerciseSetting:
    """The exercise's setting as one student has it: their extension's deadlines
    where it gives one (a copy, not added to any session)."""
    if extended is None:
        return setting
    mine = ExerciseSetting(**{column: getattr(setting, column)
                              for column in ExerciseSetting.__table__.columns.keys()})
    mine.deadline = extended.deadline or setting.deadline
    mine.hard_deadline = extended.hard_deadline or setting.hard_deadline
    return mine


def extend(session: Session, student_id: int, exercise_id: str, deadline: datetime | None,
           hard_deadline: datetime | None) -> Extension | None:
    """Set (or, with neither date, remove) the student's extension: the one made."""
    if deadline and hard_deadline and hard_deadline < deadline:
        raise ValueError("the hard deadline comes before the deadline")
    found = extension(session, student_id, exercise_id)
    if found is not None:
        session.delete(found)
        session.flush()
    if not (deadline or hard_deadline):
        return None
    made = Extension(student_id=student_id, exercise_id=exercise_id, deadline=deadline,
                     hard_deadline=hard_deadline)
    session.add(made)
    return made


def note(submission: Submission, kind: str, text: str, author: str, now: datetime,
         score: float | None = None, max_score: float | None = None) -> Note:
    """A new note on ``submission`` (to add to a session); a manual score needs a
    comment, and lies between 0 and the exercise's points."""
    text = text.strip()
    if kind not in NOTE_KINDS:
        raise ValueError(f"no such note: {kind}")
    if not text:
        raise ValueError("say why: the text is required")
    if len(text) > MAX_NOTE:
        raise ValueError(f"the text is longer than {MAX_NOTE} characters")
    if kind == "score" and (score is None or max_score is None or not 0 <= score <= max_score):
        raise ValueError(f"the score is a number from 0 to {max_score:g}" if max_score
                         else "the score is a number")
    return Note(submission_id=submission.id, kind=kind, text=text, author=author,
                score=score if kind == "score" else None, created_at=now)


def open_request(notes: Sequence[Note]) -> bool:
    """Whether the newest regrade request among ``notes`` (oldest first) waits for
    its answer."""
    asked = [one.kind for one in notes if one.kind in ("request", "answer")]
    return bool(asked) and asked[-1] == "request"


def requests_since(session: Session, student_id: int, since: datetime) -> int:
    """How many regrade requests the student made from ``since`` on."""
    return session.scalar(select(func.count()).select_from(Note).join(Submission).where(
        Submission.student_id == student_id, Note.kind == "request",
        Note.created_at >= since)) or 0


def manual(notes: Sequence[Note]) -> Note | None:
    """The attempt's newest manual score, unless a removal came after it."""
    scored = [one for one in notes if one.kind == "score"]
    return scored[-1] if scored and scored[-1].score is not None else None


def in_force(submissions: Sequence[Submission]) -> tuple[Submission, Note] | None:
    """The manual score that stands for one student's exercise (these are their
    attempts at it), with its attempt: the newest set on any of them, unless removed
    since. It stands whatever they hand in later."""
    scored = [(one.created_at, one.id, one, submission) for submission in submissions
              for one in submission.notes if one.kind == "score"]
    if not scored:
        return None
    _, _, newest, submission = max(scored, key=lambda found: found[:2])
    return None if newest.score is None else (submission, newest)


@dataclass
class Request:
    note: Note
    submission: Submission
    student: Student
    answered: bool


def requests(session: Session, course_id: int) -> list[Request]:
    """The course's regrade requests, newest first, each with whether a later answer
    came."""
    rows = session.execute(select(Note, Submission, Student)
                           .join(Submission, Note.submission_id == Submission.id)
                           .join(Student, Submission.student_id == Student.id)
                           .where(Note.kind.in_(("request", "answer")),
                                  Student.course_id == course_id)
                           .order_by(Note.id)).all()
    found: list[Request] = []
    for one, submission, student in rows:
        if one.kind == "answer":
            for earlier in found:
                earlier.answered |= earlier.submission.id == submission.id
        else:
            found.append(Request(one, submission, student, False))
    return found[::-1]
