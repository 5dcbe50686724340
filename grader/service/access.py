"""Who may do what where: the staff's secrets and signing in, the forms' CSRF tokens,
and the courses they work in (each one's time zone, and its audit log)."""

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from grader.service import audit, people, times, tokens
from grader.service.models import Course, CourseStaff, Person, Setting
from grader.service.people import Staff
from grader.service.refused import Refused

CSRF_KEY = "csrf_key"
FIRST_INSTRUCTOR = "Instructor"  # the name of the one the first start makes


class Access:
    def __init__(self, sessions: sessionmaker[Session], now: Callable[[], datetime]) -> None:
        self.sessions = sessions
        self.now = now
        self.csrf_key = self._setting(CSRF_KEY) or self._store_setting(CSRF_KEY, tokens.new())

    # -- the service's own settings -------------------------------------------------

    def _setting(self, key: str) -> str | None:
        with self.sessions() as session:
            found = session.get(Setting, key)
            return found.value if found else None

    def _store_setting(self, key: str, value: str) -> str:
        with self.sessions.begin() as session:
            session.merge(Setting(key=key, value=value))
        return value

    # -- the staff's secrets --------------------------------------------------------

    def first_instructor_secret(self) -> str | None:
        """The first instructor's login link when there is no one on the staff side yet
        (the first start): they are made, with the first course if there is none;
        else None."""
        with self.sessions.begin() as session:
            if session.scalar(select(Person.id).limit(1)) is not None:
                return None
            course = session.scalar(select(Course).order_by(Course.id).limit(1))
            if course is None:
                course = self._new_course(session, "Course")
            person = people.new_person(session, FIRST_INSTRUCTOR, None, self.now())
            people.give_role(session, course.id, person.id, "instructor", self.now())
            audit.record(session, self.now(), course.id, None, "staff added",
                         f"{person.name} (#{person.id})", "the first instructor")
            return people.login_link(session, person.id, [course.id], self.now())

    def new_instructor_secret(self) -> str:
        """A new login link for the first instructor (made if there is none), which
        opens every course they are on the staff of: the operator's, above the
        courses. Their credentials before stop opening those courses."""
        made = self.first_instructor_secret()
        if made is not None:
            return made
        with self.sessions.begin() as session:
            first = session.scalar(select(CourseStaff.person_id).where(
                CourseStaff.role == "instructor").order_by(CourseStaff.person_id).limit(1))
            person = session.get(Person, first) if first is not None else None
            assert person is not None  # the first start made one
            courses = people.courses_held(session, person.id)
            audit.person_changed(session, self.now(), None, None, "staff link", person,
                                 f"by the operator's command: a new login link for "
                                 f"{len(courses)} course(s)")
            return people.login_link(session, person.id, courses, self.now())

    def signed_in(self, secret: object) -> Staff | None:
        """The person whose live credential ``secret`` is, with their roles."""
        if not isinstance(secret, str) or not secret:
            return None
        with self.sessions() as session:
            return people.signed_in(session, secret, self.now())

    def csrf(self, subject: str) -> str:
        return tokens.csrf(self.csrf_key, subject)

    def csrf_ok(self, subject: str, given: object) -> bool:
        return tokens.csrf_ok(self.csrf_key, subject, given)

    # -- courses --------------------------------------------------------------------

    def courses(self) -> list[Course]:
        with self.sessions() as session:
            return list(session.scalars(select(Course).order_by(Course.id)))

    def course(self, course_id: int) -> Course | None:
        with self.sessions() as session:
            return session.get(Course, course_id)

    def new_course(self, title: str, by: Staff) -> Course:
        """A course, its maker its instructor; the credential they made it with opens
        it too (and no other of theirs does until they make one for it)."""
        with self.sessions.begin() as session:
            course = self._new_course(session, title)
            people.give_role(session, course.id, by.person.id, "instructor", self.now())
            people.opens_too(session, by.credential, course.id)
            audit.record(session, self.now(), course.id, by, "course made", course.title)
            audit.person_changed(session, self.now(), course.id, by, "staff added",
                                 by.person, "instructor, as the course's maker")
            return course

    def zone(self, course_id: int) -> ZoneInfo:
        """The course's time zone."""
        with self.sessions() as session:
            name = session.scalar(select(Course.time_zone).where(Course.id == course_id))
        return times.zone(name or "UTC")

    def set_time_zone(self, course_id: int, name: str, by: Staff | None = None) -> None:
        """The zone the course's times are given and shown in: Refused for an unknown
        name. The stored times stay (UTC): only how they read changes."""
        try:
            chosen = times.zone(name)
        except ValueError as why:
            raise Refused(str(why), 400) from None
        with self.sessions.begin() as session:
            course = session.get(Course, course_id)
            assert course is not None  # the page found it
            course.time_zone = chosen.key
            audit.record(session, self.now(), course_id, by, "time zone set", course.title,
                         chosen.key)

    def _new_course(self, session: Session, title: str) -> Course:
        course = Course(title=title.strip()[:255] or "Course", created_at=self.now())
        session.add(course)
        session.flush()
        return course

    def audited(self, course_id: int | None, by: Staff | None, action: str, target: str,
                detail: str = "") -> None:
        """Note a change made outside the service's own methods (the league, LTI)."""
        with self.sessions.begin() as session:
            audit.record(session, self.now(), course_id, by, action, target, detail)
