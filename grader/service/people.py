"""The staff side: people with a role in each of their courses, and the secrets that
sign them in.

A person signs in with a credential of their own: a login link, or an LTI launch's
(which lapses after LAUNCH_HOURS). A credential opens the courses it was made for,
where its person holds a role that was not revoked, and no other: a link made on a
course's Staff page, or a launch from an LMS course, opens that one course (so a
course's instructor, who sees the links they make, gets nothing beyond their
course); the operator's link for the first instructor opens all their courses; a
course made with a credential is opened by it too. What each role may do is CAN's.
Only hashes of credentials are kept.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, or_, select
from sqlalchemy.orm import Session

from grader.service import tokens
from grader.service.models import (
    STAFF_ROLES,
    Course,
    CourseStaff,
    CredentialCourse,
    Person,
    StaffCredential,
)

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
    """Who a live credential signs in: the person, their roles in the courses it
    opens (course id: role, revoked ones left out), and the credential's hash (the
    forms' CSRF subject)."""

    person: Person
    roles: dict[int, str]
    credential: str
    course_id: int | None = None  # a launch's course, where its sign-in leads

    def may(self, course_id: int, what: str) -> bool:
        return self.roles.get(course_id) in CAN[what]

    @property
    def name(self) -> str:
        return self.person.name


def signed_in(session: Session, token: str, now: datetime) -> Staff | None:
    """The person a live credential is, with their roles where it opens; None for
    anything else."""
    hashed = tokens.hashed(token)
    found = session.scalar(select(StaffCredential).where(
        StaffCredential.token_hash == hashed,
        or_(StaffCredential.expires_at.is_(None), StaffCredential.expires_at > now)))
    if found is None:
        return None
    person = session.get(Person, found.person_id)
    assert person is not None  # a credential's person is never deleted
    held = {row.course_id: row.role for row in session.scalars(
        select(CourseStaff).join(CredentialCourse,
                                 CredentialCourse.course_id == CourseStaff.course_id)
        .where(CredentialCourse.token_hash == hashed, CourseStaff.person_id == person.id,
               CourseStaff.revoked_at.is_(None)))}
    led = next(iter(held)) if found.kind == "launch" and held else None
    return Staff(person, held, hashed, led)


def courses_held(session: Session, person_id: int) -> list[int]:
    """Every course the person is on the staff of, a revoked role's too."""
    return list(session.scalars(select(CourseStaff.course_id).where(
        CourseStaff.person_id == person_id).order_by(CourseStaff.course_id)))


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


def login_link(session: Session, person_id: int, course_ids: Sequence[int],
               now: datetime) -> str:
    """A new login link for the person that opens ``course_ids`` (its secret, shown
    once). Their credentials before, links and launches, stop opening those courses;
    what they open elsewhere stays theirs."""
    held = select(StaffCredential.token_hash).where(StaffCredential.person_id == person_id)
    session.execute(delete(CredentialCourse).where(CredentialCourse.token_hash.in_(held),
                                                   CredentialCourse.course_id.in_(course_ids)))
    session.execute(delete(StaffCredential).where(  # those left opening nothing
        StaffCredential.person_id == person_id,
        ~exists().where(CredentialCourse.token_hash == StaffCredential.token_hash)))
    return _credential(session, person_id, "link", course_ids, None, now)


def launch_credential(session: Session, person_id: int, course_id: int,
                      now: datetime) -> str:
    """A credential of an LTI launch: it lapses, and opens the launch's course alone."""
    return _credential(session, person_id, "launch", [course_id],
                       now + timedelta(hours=LAUNCH_HOURS), now)


def opens_too(session: Session, credential: str, course_id: int) -> None:
    """The credential (by its hash) opens the course as well: one made with it."""
    session.add(CredentialCourse(token_hash=credential, course_id=course_id))


def _credential(session: Session, person_id: int, kind: str, course_ids: Sequence[int],
                expires_at: datetime | None, now: datetime) -> str:
    secret = tokens.new()
    hashed = tokens.hashed(secret)
    session.add(StaffCredential(token_hash=hashed, person_id=person_id, kind=kind,
                                created_at=now, expires_at=expires_at))
    session.flush()  # the credential's row before the rows naming it
    session.add_all(CredentialCourse(token_hash=hashed, course_id=course_id)
                    for course_id in course_ids)
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
