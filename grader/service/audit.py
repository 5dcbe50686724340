"""The audit log: who changed what in a course, and when. Every change the staff
make (a note, a manual score, an extension, a setting, the roster, a link, a
regrade, the staff, the league, LTI) is recorded with its author as they were
named then, in the same transaction as the change. A change to a person (a role,
a login link) is recorded in every course they are on the staff of, so that each
course's instructors see what was done to their staff elsewhere."""

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.service.models import AuditEntry, Course, Person
from grader.service.people import Staff, courses_held

SHOWN = 500  # the newest entries the page shows; the CSV has them all


def record(session: Session, now: datetime, course_id: int | None, who: Staff | None,
           action: str, target: str, detail: str = "") -> None:
    """Note a change by ``who`` (None: the service itself, or the operator's command)."""
    session.add(AuditEntry(course_id=course_id, person_id=who.person.id if who else None,
                           actor=who.name if who else "the service", at=now,
                           action=action, target=target[:255], detail=detail[:4000]))


def person_changed(session: Session, now: datetime, course_id: int | None,
                   who: Staff | None, action: str, person: Person, detail: str) -> None:
    """Note a change to ``person`` made in ``course_id`` (None: by the operator) there
    and in each other course they are on the staff of, which is told where it was."""
    made_in = session.get(Course, course_id) if course_id is not None else None
    elsewhere = f"; made in {made_in.title} (#{made_in.id})" if made_in else ""
    courses = set(courses_held(session, person.id))
    if course_id is not None:
        courses.add(course_id)
    for course in sorted(courses):
        record(session, now, course, who, action, f"{person.name} (#{person.id})",
               detail if course == course_id else detail + elsewhere)


def entries(session: Session, course_id: int, limit: int | None = SHOWN) -> list[AuditEntry]:
    """The course's entries, newest first."""
    query = (select(AuditEntry).where(AuditEntry.course_id == course_id)
             .order_by(AuditEntry.id.desc()))
    return list(session.scalars(query.limit(limit) if limit else query))


def lines(rows: list[AuditEntry]) -> list[list[object]]:
    """The entries as the CSV's lines, its header first."""
    header: list[object] = ["at (UTC)", "who", "person id", "action", "target", "detail"]
    return [header] + [
        [row.at.strftime("%Y-%m-%d %H:%M:%S"), row.actor, row.person_id or "", row.action,
         row.target, row.detail] for row in rows]
