"""The term's rules: each exercise's settings in a course (open or hidden, deadlines,
the late penalty, the minutes between attempts, which attempt counts), the students'
extensions, and the staff's notes on attempts (manual scores, comments, the students'
regrade requests and their answers)."""

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta, tzinfo

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session, sessionmaker

from grader.exercises import Exercise
from grader.service import audit, latedays, overrides
from grader.service.access import Access
from grader.service.models import ExerciseSetting, Extension, Note, Student, Submission
from grader.service.people import Staff
from grader.service.refused import Refused
from grader.service.signals import Signal
from grader.service.students import Students, named
from grader.service.times import when

SETTINGS = select(ExerciseSetting).where(ExerciseSetting.course_id == bindparam("course"))
LAST_HAND_IN = select(func.max(Submission.received_at)).where(
    Submission.student_id == bindparam("student"), Submission.exercise_id == bindparam("exercise"))


class Term:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime],
                 exercises: dict[str, Exercise], access: Access, students: Students,
                 rescored: Signal[[int, str]]) -> None:
        self.sessions = sessions
        self.now = now
        self.exercises = exercises
        self.access = access
        self.students = students
        self.rescored = rescored  # the service's signal (see core)

    # -- exercise settings ----------------------------------------------------------

    def setting(self, course_id: int, exercise_id: str) -> ExerciseSetting:
        """The exercise's settings in the course; an open exercise (no deadline, no
        limit) by default."""
        with self.sessions() as session:
            found = session.get(ExerciseSetting, (course_id, exercise_id))
        return found or default_setting(course_id, exercise_id)

    def own_settings(self, course_id: int, student_id: int) -> dict[str, ExerciseSetting]:
        """Every exercise's settings with the student's extension, if any, and the late
        days they spent (``setting`` and ``own_setting`` of each)."""
        return self.own_settings_spent(course_id, student_id)[0]

    def own_settings_spent(self, course_id: int, student_id: int) -> tuple[
            dict[str, ExerciseSetting], latedays.Spent]:
        """``own_settings``, and the student's late days."""
        with self.sessions() as session:
            found = {setting.exercise_id: setting
                     for setting in session.scalars(SETTINGS, {"course": course_id})}
            extended = {extension.exercise_id: extension for extension in session.scalars(
                select(Extension).where(Extension.student_id == student_id))}
            own = {exercise_id: overrides.own_setting(
                       found.get(exercise_id) or default_setting(course_id, exercise_id),
                       extended.get(exercise_id))
                   for exercise_id in self.exercises}
            return latedays.applied(session, course_id, student_id, own)

    def save_setting(self, setting: ExerciseSetting, by: Staff | None = None) -> None:
        if setting.exercise_id not in self.exercises:
            raise Refused(f"no exercise {setting.exercise_id!r}")
        if setting.score_rule not in ("best", "last"):
            raise Refused("the score rule is best or last")
        if not 0 <= setting.late_penalty <= 1:
            raise Refused("the late penalty is a percentage from 0 to 100")
        if setting.min_minutes < 0:
            raise Refused("the minutes between attempts are not negative")
        if setting.deadline and setting.hard_deadline and setting.hard_deadline < setting.deadline:
            raise Refused("the hard deadline comes before the deadline")
        with self.sessions.begin() as session:
            session.merge(setting)
            audit.record(session, self.now(), setting.course_id, by, "settings saved",
                         setting.exercise_id,
                         said_setting(setting, self.access.zone(setting.course_id)))
        self.rescored(setting.course_id, setting.exercise_id)

    def late_days(self, student: Student) -> latedays.Spent:
        """The late days the student has spent, and has."""
        return self.own_settings_spent(student.course_id, student.id)[1]

    def own_setting(self, course_id: int, student_id: int,
                    exercise_id: str) -> ExerciseSetting:
        """The exercise's settings with the student's extension, if any, and the late
        days they spent (on any exercise's, as they are spent across them)."""
        if exercise_id in self.exercises:
            return self.own_settings(course_id, student_id)[exercise_id]
        with self.sessions() as session:
            found = session.get(ExerciseSetting, (course_id, exercise_id))
            extended = overrides.extension(session, student_id, exercise_id)
        return overrides.own_setting(found or default_setting(course_id, exercise_id),
                                     extended)

    def open_exercises(self, course_id: int) -> set[str]:
        """The ids of the exercises open to the course's students now (an extension
        moves deadlines only: the same for every student)."""
        now = self.now()
        with self.sessions() as session:
            found = {setting.exercise_id: setting
                     for setting in session.scalars(SETTINGS, {"course": course_id})}
        # One never saved has default_setting's: hidden.
        return {exercise_id for exercise_id, setting in found.items()
                if exercise_id in self.exercises and is_open(setting, now)}

    # -- when a hand-in is taken ------------------------------------------------------

    def next_allowed(self, student_id: int, setting: ExerciseSetting) -> datetime | None:
        """When the student may hand in again at ``setting``'s exercise; None when now
        is fine."""
        if not setting.min_minutes:
            return None
        with self.sessions() as session:
            last = session.scalar(LAST_HAND_IN, {"student": student_id,
                                                 "exercise": setting.exercise_id})
        return allowed_after(setting, last, self.now())

    def check_window(self, student_id: int, exercise_id: str, now: datetime) -> bool:
        """Whether a submission now is late; Refused when none is taken now."""
        course_id = self.students.course_of(student_id)
        setting = self.own_setting(course_id, student_id, exercise_id)
        if not is_open(setting, now):  # an extension moves deadlines only
            raise Refused("this exercise is not open", 403)
        where = self.access.zone(course_id)
        if setting.hard_deadline and now > setting.hard_deadline:
            raise Refused(f"the hard deadline ({when(setting.hard_deadline, where)}) has "
                          "passed: no more submissions are taken for this exercise", 403)
        allowed = self.next_allowed(student_id, setting)
        if allowed is not None:
            raise Refused(f"too soon: your next attempt at this exercise is allowed from "
                          f"{when(allowed, where)}", 429)
        return bool(setting.deadline and now > setting.deadline)

    # -- extensions -----------------------------------------------------------------

    def extend(self, student_id: int, exercise_id: str, deadline: datetime | None,
               hard_deadline: datetime | None, by: Staff | None = None) -> None:
        """Set (or, with neither date, remove) one student's extension."""
        student = self.students.by_id(self.students.course_of(student_id), student_id)
        assert student is not None  # the page found them
        self.extend_many(student.course_id, [student_id], exercise_id, deadline,
                         hard_deadline, by, named(student))

    def extend_many(self, course_id: int, student_ids: Iterable[int], exercise_id: str,
                    deadline: datetime | None, hard_deadline: datetime | None,
                    by: Staff | None = None, who: str = "") -> int:
        """Set (or remove) the extension of each of the course's students of these ids
        (a section, the class), in one change audited once as ``who``: how many.
        The lateness of the attempts made already is judged again by it (see
        ``scores.late``), and the counted scores sent on to the LMS."""
        if exercise_id not in self.exercises:
            raise Refused("no such exercise", 404)
        try:
            with self.sessions.begin() as session:
                ids = list(session.scalars(select(Student.id).where(
                    Student.course_id == course_id, Student.id.in_(list(student_ids)))))
                for student_id in ids:
                    made = overrides.extend(session, student_id, exercise_id, deadline,
                                            hard_deadline)
                    if made is not None:
                        made.person_id = by.person.id if by else None
                        made.set_at = self.now()
                where = self.access.zone(course_id)
                said = [f"{name} {when(moment, where) if moment else '-'}" for name, moment
                        in (("deadline", deadline), ("hard deadline", hard_deadline))]
                audit.record(session, self.now(), course_id, by,
                             "extension set" if deadline or hard_deadline
                             else "extension removed",
                             f"{who or f'{len(ids)} student(s)'}, {exercise_id}",
                             ", ".join(said))
        except ValueError as why:
            raise Refused(str(why), 400) from None
        self.rescored(course_id, exercise_id)
        return len(ids)

    def extensions(self, student_id: int) -> dict[str, Extension | None]:
        """Each exercise's extension for the student, or None."""
        with self.sessions() as session:
            return {exercise_id: overrides.extension(session, student_id, exercise_id)
                    for exercise_id in self.exercises}

    # -- notes, manual scores and regrade requests ------------------------------------

    def requests(self, course_id: int) -> list[overrides.Request]:
        with self.sessions() as session:
            return overrides.requests(session, course_id)

    def add_note(self, submission_id: int, kind: str, text: str, author: str,
                 score: float | None = None, by: Staff | None = None) -> Note:
        """Note ``text`` on a submission (see ``overrides.note``), written by ``by``
        (staff) or, without, by ``author`` (the student's request); a manual score is
        sent on to the LMS."""
        submission = self.students.submission(submission_id)
        if submission is None:
            raise Refused("no such attempt", 404)
        exercise = self.exercises[submission.exercise_id]
        if kind == "request":
            self._check_request(submission)
        try:
            made = overrides.note(submission, kind, text, by.name if by else author,
                                  self.now(), score, exercise.max_score)
        except ValueError as why:
            raise Refused(str(why), 400) from None
        made.person_id = by.person.id if by else None
        with self.sessions.begin() as session:
            session.add(made)
            student = session.get(Student, submission.student_id)
            assert student is not None  # a submission's student is never deleted
            if by is not None:
                scored = f" {score:g}/{exercise.max_score:g}" if kind == "score" else ""
                audit.record(session, self.now(), student.course_id, by, f"{kind} noted",
                             f"attempt #{submission.id} of {named(student)}",
                             f"{scored.strip()} {made.text}".strip())
            course_id = student.course_id
        if kind == "score":
            self.rescored(course_id, exercise.id)
        return made

    def remove_override(self, submission_id: int, by: Staff) -> None:
        """End the manual score in force for the attempt's student and exercise: the
        grader's scores count again. A note says who removed it, and when."""
        submission = self.students.submission(submission_id)
        if submission is None:
            raise Refused("no such attempt", 404)
        mine = self.students.attempts(submission.student_id, submission.exercise_id)
        if overrides.in_force(mine) is None:
            raise Refused("no manual score is in force for this exercise", 409)
        with self.sessions.begin() as session:
            session.add(Note(submission_id=submission.id, kind="score", score=None,
                             text=overrides.REMOVED, author=by.name, person_id=by.person.id,
                             created_at=self.now()))
            student = session.get(Student, submission.student_id)
            assert student is not None  # a submission's student is never deleted
            audit.record(session, self.now(), student.course_id, by, "score removed",
                         f"attempt #{submission.id} of {named(student)}")
            course_id = student.course_id
        self.rescored(course_id, submission.exercise_id)

    def _check_request(self, submission: Submission) -> None:
        """Refused when the attempt has a request waiting for its answer, or the
        student has made REQUESTS_A_DAY requests in the last day."""
        if overrides.open_request(submission.notes):
            raise Refused("this attempt has a regrade request waiting for its answer "
                          "already", 409)
        day = self.now() - timedelta(days=1)
        with self.sessions() as session:
            made = overrides.requests_since(session, submission.student_id, day)
        if made >= overrides.REQUESTS_A_DAY:
            raise Refused(f"you have made {made} regrade requests in the last day, the most "
                          "there can be: ask again tomorrow", 429)


def default_setting(course_id: int, exercise_id: str) -> ExerciseSetting:
    """An exercise's settings before the instructor saves any: hidden from students
    (until the instructor opens it), no deadline."""
    return ExerciseSetting(course_id=course_id, exercise_id=exercise_id, late_penalty=0.0,
                           min_minutes=0.0, score_rule="best", visible=False)


def said_setting(setting: ExerciseSetting, where: tzinfo = UTC) -> str:
    """A setting in words, as the page confirms it and the audit log keeps it."""
    shown = "open to students" if setting.visible else "hidden from students"
    released = f" from {when(setting.release_at, where)}" if setting.release_at else ""
    deadline = when(setting.deadline, where) if setting.deadline else "none"
    hard = f" (hard: {when(setting.hard_deadline, where)})" if setting.hard_deadline else ""
    canvas = {None: "in canvas.csv while open", True: "in canvas.csv",
              False: "not in canvas.csv"}[setting.in_canvas]
    return (f"{shown}{released}; deadline {deadline}{hard}; late penalty "
            f"{setting.late_penalty:.0%}; {setting.min_minutes:g} minutes between attempts; "
            f"{setting.score_rule} attempt counts; {canvas}")


def allowed_after(setting: ExerciseSetting, last: datetime | None,
                  now: datetime) -> datetime | None:
    """When a student whose last hand-in came at ``last`` may hand in again; None
    when now is fine."""
    if not setting.min_minutes or last is None:
        return None
    allowed = last + timedelta(minutes=setting.min_minutes)
    return allowed if allowed > now else None


def is_open(setting: ExerciseSetting, now: datetime) -> bool:
    """Whether an exercise of these settings is open to students: visible, released."""
    return setting.visible and not (setting.release_at and now < setting.release_at)
