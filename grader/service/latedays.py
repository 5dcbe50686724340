"""Late days: a course may give each student a number of days to spend across its
exercises, each day moving one exercise's deadline a day later for them (no late
penalty within it; the hard deadline stays).

Days are spent by the hand-ins themselves, as they came: a hand-in late by part
of a day or more spends whole days, rounded up, when the student has them left
(and those already spent on the exercise count towards it); one they can't cover
stays late. The days are worked out again from the hand-ins whenever they are
needed, so that an extension that takes a hand-in on time gives its days back.
A staff member may set the days spent on one student's exercise instead
(refunding them with 0, or granting more); the rest are spent from what is left.
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from grader.service import audit, overrides
from grader.service.models import (
    ExerciseSetting,
    Extension,
    LateDayAllowance,
    LateDaysSet,
    Student,
    Submission,
)
from grader.service.people import Staff
from grader.service.refused import Refused
from grader.service.signals import Signal
from grader.service.students import named

DAY = timedelta(days=1)
MOST = 365  # days a course may give


@dataclass
class Spent:
    """One student's late days: the course's allowance, the days spent on each
    exercise, and the exercises whose days a staff member set."""

    allowance: int = 0
    days: dict[str, int] = field(default_factory=dict)
    set_by_staff: set[str] = field(default_factory=set)

    @property
    def used(self) -> int:
        return sum(self.days.values())

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)

    def where(self) -> list[tuple[str, int, bool]]:
        """Each exercise with days spent or set: its id, the days, whether set."""
        return [(one, self.days.get(one, 0), one in self.set_by_staff)
                for one in sorted(self.days.keys() | self.set_by_staff)]

    def __bool__(self) -> bool:
        """Whether there is anything to say: the course gives days, or some were set."""
        return bool(self.allowance or self.days or self.set_by_staff)


def late_by(received: datetime, deadline: datetime | None) -> int:
    """Whole days (rounded up) a hand-in at ``received`` is past ``deadline``."""
    if deadline is None or received <= deadline:
        return 0
    return math.ceil((received - deadline) / DAY)


def spend(allowance: int, settings: dict[str, ExerciseSetting],
          hand_ins: Iterable[tuple[str, datetime]], staff_set: dict[str, int]) -> Spent:
    """The days the student's hand-ins (exercise id, when), in the order they came,
    spend against their ``settings`` (their own deadlines), besides those set."""
    days = dict(staff_set)
    left = allowance - sum(staff_set.values())
    for exercise_id, received in sorted(hand_ins, key=lambda one: one[1]):
        if exercise_id in staff_set or exercise_id not in settings:
            continue
        needed = late_by(received, settings[exercise_id].deadline)
        more = needed - days.get(exercise_id, 0)
        if 0 < more <= left:
            days[exercise_id] = needed
            left -= more
    return Spent(allowance, {one: count for one, count in days.items() if count},
                 set(staff_set))


def moved(setting: ExerciseSetting, days: int) -> ExerciseSetting:
    """The setting with its deadline ``days`` later (a copy, as an extension's)."""
    if not days or setting.deadline is None:
        return setting
    return overrides.own_setting(setting, Extension(deadline=setting.deadline + days * DAY))


def allowance(session: Session, course_id: int) -> int:
    found = session.get(LateDayAllowance, course_id)
    return found.days if found else 0


def applied(session: Session, course_id: int, student_id: int,
            settings: dict[str, ExerciseSetting]) -> tuple[dict[str, ExerciseSetting], Spent]:
    """The student's ``settings`` (their own) with the late days they spent, and those."""
    given = allowance(session, course_id)
    staff_set = {row.exercise_id: row.days for row in session.scalars(
        select(LateDaysSet).where(LateDaysSet.student_id == student_id))}
    if not given and not staff_set:
        return settings, Spent()
    hand_ins = session.execute(select(Submission.exercise_id, Submission.received_at).where(
        Submission.student_id == student_id, Submission.replaced_by.is_(None))).all()
    spent = spend(given, settings, [(one, when) for one, when in hand_ins], staff_set)
    return {one: moved(setting, spent.days.get(one, 0))
            for one, setting in settings.items()}, spent


class LateDays:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 exercises: Iterable[str], rescored: Signal[[int, str]]) -> None:
        self.sessions = sessions
        self.now = now
        self.exercises = list(exercises)
        self.rescored = rescored  # the service's signal: the LMS gets the new scores

    def allowance(self, course_id: int) -> int:
        with self.sessions() as session:
            return allowance(session, course_id)

    def give(self, course_id: int, days: int, by: Staff) -> None:
        """Give each of the course's students ``days`` late days (0: none)."""
        if not 0 <= days <= MOST:
            raise Refused(f"the late days are a whole number from 0 to {MOST}", 400)
        with self.sessions.begin() as session:
            session.merge(LateDayAllowance(course_id=course_id, days=days))
            audit.record(session, self.now(), course_id, by, "late days given",
                         "every student", f"{days} late day(s) each")
        self._rescored(course_id)

    def set(self, course_id: int, student: Student, exercise_id: str, days: int | None,
            by: Staff) -> None:
        """Set the days the student spent on the exercise; None: as their hand-ins
        spend them again."""
        if exercise_id not in self.exercises:
            raise Refused("no such exercise", 404)
        if days is not None and not 0 <= days <= MOST:
            raise Refused(f"the late days are a whole number from 0 to {MOST}", 400)
        with self.sessions.begin() as session:
            session.execute(delete(LateDaysSet).where(LateDaysSet.student_id == student.id,
                                                      LateDaysSet.exercise_id == exercise_id))
            if days is not None:
                session.add(LateDaysSet(student_id=student.id, exercise_id=exercise_id,
                                        days=days, person_id=by.person.id, set_at=self.now()))
            audit.record(session, self.now(), course_id, by, "late days set",
                         f"{named(student)}, {exercise_id}",
                         "as the hand-ins spend them" if days is None else f"{days} day(s)")
        self._rescored(course_id)

    def _rescored(self, course_id: int) -> None:
        """Days given or set may move the deadlines of every exercise."""
        for exercise_id in self.exercises:
            self.rescored(course_id, exercise_id)
