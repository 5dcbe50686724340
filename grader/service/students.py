"""The course's students: its roster, their personal links (and LTI's launch keys),
and each one's hand-ins as kept."""

from collections.abc import Callable, Iterable
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, selectinload, sessionmaker

from grader.service import audit, roster, tokens
from grader.service.models import LaunchKey, Report, Student, Submission
from grader.service.people import Staff

# What every hand-in and status asks, built once with bound parameters (see fair).
BY_TOKEN = select(Student).where(Student.token_hash == bindparam("hash"))
BY_KEY = select(Student).join(LaunchKey).where(LaunchKey.token_hash == bindparam("hash"),
                                               LaunchKey.expires_at > bindparam("now"))


def named(student: Student) -> str:
    """A student as the audit log names them."""
    return f"{student.name} (#{student.id})"


class Students:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime]) -> None:
        self.sessions = sessions
        self.now = now

    def by_token(self, token: str) -> Student | None:
        """The student whose personal link, or live launch key (LTI), ``token`` is."""
        hashed = tokens.hashed(token)
        with self.sessions() as session:
            found = session.scalar(BY_TOKEN, {"hash": hashed}) or \
                session.scalar(BY_KEY, {"hash": hashed, "now": self.now()})
        return found if found is not None and found.active else None

    def of_course(self, course_id: int) -> list[Student]:
        with self.sessions() as session:
            return list(session.scalars(select(Student).where(Student.course_id == course_id)
                                        .order_by(Student.name, Student.id)))

    def by_id(self, course_id: int, student_id: int) -> Student | None:
        """The course's student of that id; None for another course's."""
        with self.sessions() as session:
            found = session.get(Student, student_id)
        return found if found is not None and found.course_id == course_id else None

    def course_of(self, student_id: int) -> int:
        """The id of the course of a student the page found."""
        with self.sessions() as session:
            course_id = session.scalar(select(Student.course_id)
                                       .where(Student.id == student_id))
        assert course_id is not None  # the page found the student
        return course_id

    def import_roster(self, course_id: int, rows: Iterable["roster.Person | tuple[str, str]"],
                      match_platform: int | None = None, by: Staff | None = None
                      ) -> list[tuple[Student, str | None]]:
        """Add the students (name, email and the LMS's ids, see ``roster.Person``) not
        yet on the course's roster: each new one with its token (shown once), each
        known one (same email) with None, its LMS ids brought up to date. A launch
        from ``match_platform`` may tie a new one to their LTI identity by email, once."""
        added: list[tuple[Student, str | None]] = []
        with self.sessions.begin() as session:
            for row in rows:
                person = roster.Person(*row)
                known = session.scalar(select(Student).where(Student.course_id == course_id,
                                                              Student.email == person.email))
                if known is not None:
                    person.ids_onto(known)
                    added.append((known, None))
                    continue
                token = tokens.new()
                student = Student(course_id=course_id, name=person.name, email=person.email,
                                  token_hash=tokens.hashed(token), created_at=self.now(),
                                  match_platform_id=match_platform)
                person.ids_onto(student)
                session.add(student)
                session.flush()
                added.append((student, token))
            new = sum(1 for _, token in added if token)
            audit.record(session, self.now(), course_id, by, "roster imported",
                         f"{len(added)} student(s)", f"{new} new")
        return added

    def new_link(self, student_id: int, by: Staff | None = None) -> str:
        """A new personal link for the student: the one before stops working."""
        token = tokens.new()
        with self.sessions.begin() as session:
            student = session.get(Student, student_id)
            assert student is not None  # the page found them
            student.token_hash = tokens.hashed(token)
            audit.record(session, self.now(), student.course_id, by, "new link",
                         named(student))
        return token

    def new_links(self, course_id: int, student_ids: Iterable[int], by: Staff | None = None
                  ) -> list[tuple[Student, str]]:
        """New personal links for the course's students of these ids, in one change
        (audited once): the ones before stop working. Each with its token."""
        made = []
        with self.sessions.begin() as session:
            for student in session.scalars(select(Student).where(
                    Student.course_id == course_id, Student.id.in_(list(student_ids)))
                    .order_by(Student.name, Student.id)):
                token = tokens.new()
                student.token_hash = tokens.hashed(token)
                made.append((student, token))
            audit.record(session, self.now(), course_id, by, "new links",
                         f"{len(made)} student(s)",
                         ", ".join(named(student) for student, _ in made)[:2000])
        return made

    def set_active(self, student_id: int, active: bool, by: Staff | None = None) -> None:
        """An inactive student's link opens nothing; their work stays in the gradebook."""
        with self.sessions.begin() as session:
            student = session.get(Student, student_id)
            assert student is not None  # the page found them
            student.active = active
            audit.record(session, self.now(), student.course_id, by,
                         "reactivated" if active else "deactivated", named(student))

    # -- their hand-ins ---------------------------------------------------------------

    def attempts(self, student_id: int, exercise_id: str | None = None,
                 bodies: bool = False) -> list[Submission]:
        """The student's submissions, oldest first, with their reports (the reports'
        JSON too when ``bodies``: the gradebook needs only their scores)."""
        reports = selectinload(Submission.reports)
        query = (select(Submission).where(Submission.student_id == student_id)
                 .options(reports.undefer(Report.body) if bodies else reports,
                          selectinload(Submission.files), selectinload(Submission.notes))
                 .order_by(Submission.received_at, Submission.id))
        if exercise_id is not None:
            query = query.where(Submission.exercise_id == exercise_id)
        with self.sessions() as session:
            return list(session.scalars(query))

    def submission(self, submission_id: int, student_id: int | None = None) -> Submission | None:
        """A submission with its files and reports; None when there is none, or it is
        not ``student_id``'s (when given)."""
        with self.sessions() as session:
            found = session.scalar(
                select(Submission).where(Submission.id == submission_id)
                .options(selectinload(Submission.reports).undefer(Report.body),
                         selectinload(Submission.files), selectinload(Submission.notes)))
        if found is None or (student_id is not None and found.student_id != student_id):
            return None
        return found
