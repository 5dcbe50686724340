"""The staff side: people with a role in each of their courses, and the secrets that
sign them in.

A person signs in with a credential of their own: a login link (made when an
instructor adds them, or for the first instructor at the first start) or an LTI
launch's (which lapses after LAUNCH_HOURS and opens the course it came from). A
credential opens only the courses where its person holds a role that was not
revoked; what each role may do is CAN's. Only hashes of credentials are kept.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from grader.service import tokens
from grader.service.models import STAFF_ROLES, Course, CourseStaff, Person, StaffCredential

LAUNCH_HOURS = 8
ROLE_NAMES = {"instructor": "instructor", "ta": "TA"}
# What each role may do in its course: "view" the gradebook, attempts and files;
# "grade" (comments, manual scores, answers, extensions, regrading a student or an
# attempt); "manage" the course (settings, roster, links, regrade all, the league,
# LTI); and its "staff".
CAN = {"view": STAFF_ROLES, "grade": STAFF_ROLES, "manage": ("instructor",),
       "staff": ("instructor",)}


@dataclass(frozen=True)
class Staff:
    """Who a live credential signs in: the person, their roles (course id: role,
    revoked ones left out), and the credential's hash (the forms' CSRF subject)."""

    person: Person
    roles: dict[int, str]
    credential: str
    course_id: int | None = None  # where a launch's credential opens

    def may(self, course_id: int, what: str) -> bool:
        return self.roles.get(course_id) in CAN[what]

    @property
    def name(self) -> str:
        return self.person.name


def signed_in(session: Session, token: str, now: datetime) -> Staff | None:
    """The person a live credential is, with their roles; None for anything else."""
    hashed = tokens.hashed(token)
    found = session.scalar(select(StaffCredential).where(
        StaffCredential.token_hash == hashed,
        or_(StaffCredential.expires_at.is_(None), StaffCredential.expires_at > now)))
    if found is None:
        return None
    person = session.get(Person, found.person_id)
    assert person is not None  # a credential's person is never deleted
    return Staff(person, roles(session, person.id), hashed, found.course_id)


def roles(session: Session, person_id: int) -> dict[int, str]:
    return {row.course_id: row.role for row in session.scalars(select(CourseStaff).where(
        CourseStaff.person_id == person_id, CourseStaff.revoked_at.is_(None)))}


def courses_of(session: Session, staff: Staff) -> list[tuple[Course, str]]:
    """The courses the person holds a role in, each with the role."""
    found = session.scalars(select(Course).where(Course.id.in_(staff.roles))
                            .order_by(Course.title, Course.id))
    return [(course, staff.roles[course.id]) for course in found]


def new_person(session: Session, name: str, email: str | None, now: datetime) -> Person:
    person = Person(name=name.strip()[:200] or "(no name)", email=email or None,
                    created_at=now)
    session.add(person)
    session.flush()
    return person


def give_role(session: Session, course_id: int, person_id: int, role: str,
              now: datetime) -> CourseStaff:
    """The person's role in the course, set (a revoked one stays revoked)."""
    if role not in STAFF_ROLES:
        raise ValueError(f"no such role: {role}")
    found = session.get(CourseStaff, (course_id, person_id))
    if found is None:
        found = CourseStaff(course_id=course_id, person_id=person_id, added_at=now)
        session.add(found)
    found.role = role
    session.flush()
    return found


def login_link(session: Session, person_id: int, now: datetime) -> str:
    """A new login link for the person (its secret, shown once); the links before
    stop working, their launches' credentials do not."""
    session.execute(delete(StaffCredential).where(StaffCredential.person_id == person_id,
                                                  StaffCredential.kind == "link"))
    return _credential(session, person_id, "link", None, None, now)


def launch_credential(session: Session, person_id: int, course_id: int,
                      now: datetime) -> str:
    """A credential of an LTI launch: it lapses, and opens the launch's course first."""
    return _credential(session, person_id, "launch", course_id,
                       now + timedelta(hours=LAUNCH_HOURS), now)


def sign_out_everywhere(session: Session, person_id: int) -> None:
    session.execute(delete(StaffCredential).where(StaffCredential.person_id == person_id))


def _credential(session: Session, person_id: int, kind: str, course_id: int | None,
                expires_at: datetime | None, now: datetime) -> str:
    secret = tokens.new()
    session.add(StaffCredential(token_hash=tokens.hashed(secret), person_id=person_id,
                                kind=kind, course_id=course_id, created_at=now,
                                expires_at=expires_at))
    return secret


def staff_of(session: Session, course_id: int) -> Sequence[tuple[Person, CourseStaff]]:
    """The course's staff, revoked ones too, by name."""
    return [(person, role) for person, role in session.execute(
        select(Person, CourseStaff).join(CourseStaff, CourseStaff.person_id == Person.id)
        .where(CourseStaff.course_id == course_id).order_by(Person.name, Person.id))]


def instructors_left(session: Session, course_id: int, without: int) -> int:
    """The course's live instructors but ``without``: a course keeps one at least."""
    return sum(1 for person, role in staff_of(session, course_id)
               if role.role == "instructor" and role.revoked_at is None
               and person.id != without)
