"""Rubrics: each exercise of a course has a list of named adjustments (points up or
down, and a sentence the student reads) that the staff make once and apply to any
attempt with one click. An attempt's score is its report's plus the items applied
to it, kept between 0 and the exercise's points, and said in words: "8/10 from the
tests, −1 'no docstring', +0.5 'clear names' = 7.5/10". The late penalty is then a
fraction of that; a manual score still stands over all of it (see ``scores``).

Changing an item changes every attempt it is applied to: the counted scores (and
the LMS's) follow. Every change is audited with its author.
"""

import math
from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from grader.service import audit
from grader.service.models import RubricItem, RubricMark, Student, Submission
from grader.service.people import Staff
from grader.service.refused import Refused
from grader.service.signals import Signal
from grader.service.students import named

MAX_NAME = 80
MAX_TEXT = 2000
MINUS = "\u2212"  # the minus sign, as the words print it


def _sum(score: float, marks: Sequence[RubricMark]) -> float:
    return round(score + sum(mark.item.points for mark in marks), 4)


def adjusted(score: float, max_score: float, marks: Sequence[RubricMark]) -> float:
    """The report's score with the applied items' points, from 0 to ``max_score``."""
    return min(max_score, max(0.0, _sum(score, marks)))


def signed(points: float) -> str:
    return f"+{points:g}" if points >= 0 else f"{MINUS}{-points:g}"


def said(score: float, max_score: float, marks: Sequence[RubricMark]) -> str:
    """The score in words: the report's alone, or with each item applied and the sum."""
    if not marks:
        return f"{score:g}/{max_score:g}"
    parts = [f"{score:g}/{max_score:g} from the tests"]
    parts += [f"{signed(mark.item.points)} '{mark.item.name}'" for mark in marks]
    total = adjusted(score, max_score, marks)
    kept = "" if total == _sum(score, marks) else f" (kept between 0 and {max_score:g})"
    return f"{', '.join(parts)} = {total:g}/{max_score:g}{kept}"


def checked(name: str, points: float, text: str, max_score: float) -> tuple[str, float, str]:
    """An item's values as kept; ValueError with a sentence when one is wrong."""
    name, text = name.strip(), text.strip()
    if not name or len(name) > MAX_NAME:
        raise ValueError(f"give the item a name of 1 to {MAX_NAME} characters")
    if not text or len(text) > MAX_TEXT:
        raise ValueError(f"say what the item means to the student (1 to {MAX_TEXT} "
                         "characters)")
    if not math.isfinite(points) or points == 0 or abs(points) > max_score:
        raise ValueError(f"the points are a number other than 0, from {MINUS}{max_score:g} "
                         f"to +{max_score:g}")
    return name, points, text


def attempt_named(session: Session, submission: Submission) -> str:
    """An attempt as the audit log names it."""
    student = session.get(Student, submission.student_id)
    assert student is not None  # a submission's student is never deleted
    return f"attempt #{submission.id} of {named(student)}"


class Rubrics:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 max_scores: dict[str, float], rescored: Signal[[int, str]]) -> None:
        self.sessions = sessions
        self.now = now
        self.max_scores = max_scores  # each exercise's points
        self.rescored = rescored  # the service's signal: the LMS gets the new scores

    def items(self, course_id: int, exercise_id: str) -> list[RubricItem]:
        """The exercise's rubric in the course, in the order its items were made."""
        with self.sessions() as session:
            return list(session.scalars(select(RubricItem).where(
                RubricItem.course_id == course_id, RubricItem.exercise_id == exercise_id)
                .order_by(RubricItem.id)))

    def add(self, course_id: int, exercise_id: str, name: str, points: float, text: str,
            by: Staff, apply_to: Submission | None = None) -> RubricItem:
        """A new item of the exercise's rubric, applied to ``apply_to`` when given."""
        try:
            name, points, text = checked(name, points, text, self.max_scores[exercise_id])
        except ValueError as why:
            raise Refused(str(why), 400) from None
        with self.sessions.begin() as session:
            item = RubricItem(course_id=course_id, exercise_id=exercise_id, name=name,
                              points=points, text=text, created_at=self.now())
            session.add(item)
            session.flush()
            audit.record(session, self.now(), course_id, by, "rubric item made",
                         f"{exercise_id}: '{name}'", f"{signed(points)} {text}")
            if apply_to is not None:
                self._mark(session, apply_to, item, by)
        if apply_to is not None:
            self.rescored(course_id, exercise_id)
        return item

    def change(self, course_id: int, item_id: int, name: str, points: float, text: str,
               by: Staff) -> None:
        """New values for an item: every attempt it is applied to follows."""
        with self.sessions.begin() as session:
            item = self._item(session, course_id, item_id)
            try:
                item.name, item.points, item.text = checked(
                    name, points, text, self.max_scores[item.exercise_id])
            except ValueError as why:
                raise Refused(str(why), 400) from None
            audit.record(session, self.now(), course_id, by, "rubric item changed",
                         f"{item.exercise_id}: '{item.name}'", f"{signed(item.points)} "
                         f"{item.text}")
            exercise_id = item.exercise_id
        self.rescored(course_id, exercise_id)

    def remove(self, course_id: int, item_id: int, by: Staff) -> None:
        """Remove an item from the rubric, and from every attempt it was applied to."""
        with self.sessions.begin() as session:
            item = self._item(session, course_id, item_id)
            applied = session.execute(delete(RubricMark).where(RubricMark.item_id == item.id))
            audit.record(session, self.now(), course_id, by, "rubric item removed",
                         f"{item.exercise_id}: '{item.name}'",
                         f"{signed(item.points)} {item.text}; it was applied to "
                         f"{applied.rowcount} attempt(s)")  # type: ignore[attr-defined]
            session.delete(item)
            exercise_id = item.exercise_id
        self.rescored(course_id, exercise_id)

    def toggle(self, course_id: int, submission: Submission, item_id: int,
               by: Staff) -> bool:
        """Apply the item to the attempt, or take it off if it is applied: whether it
        is applied now."""
        with self.sessions.begin() as session:
            item = self._item(session, course_id, item_id)
            if item.exercise_id != submission.exercise_id:
                raise Refused("that item is another exercise's", 400)
            found = session.get(RubricMark, (submission.id, item.id))
            if found is None:
                self._mark(session, submission, item, by)
            else:
                session.delete(found)
                audit.record(session, self.now(), course_id, by, "rubric item taken off",
                             attempt_named(session, submission),
                             f"{signed(item.points)} '{item.name}'")
        self.rescored(course_id, submission.exercise_id)
        return found is None

    def _mark(self, session: Session, submission: Submission, item: RubricItem,
              by: Staff) -> None:
        session.add(RubricMark(submission_id=submission.id, item_id=item.id, author=by.name,
                               person_id=by.person.id, at=self.now()))
        audit.record(session, self.now(), item.course_id, by, "rubric item applied",
                     attempt_named(session, submission),
                     f"{signed(item.points)} '{item.name}': {item.text}")

    @staticmethod
    def _item(session: Session, course_id: int, item_id: int) -> RubricItem:
        item = session.get(RubricItem, item_id)
        if item is None or item.course_id != course_id:
            raise Refused("no such rubric item", 404)
        return item
