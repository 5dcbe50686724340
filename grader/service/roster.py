"""Rosters: the plain CSV (columns name and email) and Canvas's own export (its
gradebook CSV: Student, ID, SIS User ID, SIS Login ID, Section, then one column
per assignment, with a "Points Possible" line), whose ids are kept so that the
grades go back into Canvas under them."""

import csv
import io
from typing import NamedTuple

from grader.service.models import Student

MAX_ROSTER = 5000
CANVAS = ("student", "id", "sis user id", "sis login id", "section")
IDS = ("canvas_id", "sis_user_id", "sis_login_id", "section")
# Lines of Canvas's export that are no student.
NOT_STUDENTS = ("points possible", "test student", "student, test")


class Person(NamedTuple):
    name: str
    email: str  # or a login: whatever is unique to the student
    canvas_id: str | None = None
    sis_user_id: str | None = None
    sis_login_id: str | None = None
    section: str | None = None

    def ids_onto(self, student: Student) -> None:
        """Give ``student`` this person's LMS ids, those it has."""
        for column in IDS:
            if getattr(self, column):
                setattr(student, column, getattr(self, column))


def parse(text: str) -> list[Person]:
    """The people of a roster CSV, either kind; ValueError says what is wrong with it."""
    reader = csv.DictReader(io.StringIO(text))
    columns = {(field or "").strip().lower(): field for field in reader.fieldnames or []}
    canvas = all(name in columns for name in CANVAS)
    if not canvas and ("name" not in columns or "email" not in columns):
        raise ValueError("the roster needs a header line with the columns name and email, "
                         "or Canvas's gradebook export (Student, ID, SIS User ID, "
                         "SIS Login ID, Section)")
    found: dict[str, Person] = {}
    for number, line in enumerate(reader, start=2):
        cells = {name: (line.get(field) or "").strip() for name, field in columns.items()}
        person = _from_canvas(cells) if canvas else Person(cells["name"], cells["email"])
        if person is None or not (person.name or person.email):
            continue
        if not person.name or not person.email or len(person.name) > 200 or \
                len(person.email) > 254:
            raise ValueError(f"line {number}: a name and an email (or login) are needed")
        found.setdefault(person.email, person)
        if len(found) > MAX_ROSTER:
            raise ValueError(f"the roster holds more than {MAX_ROSTER} students")
    return list(found.values())


def _from_canvas(cells: dict[str, str]) -> Person | None:
    """A student of Canvas's export, known by their login (else their Canvas id);
    None for its lines that are no student."""
    name = cells["student"]
    if name.lower() in NOT_STUDENTS:
        return None
    login = cells["sis login id"] or (f"canvas:{cells['id']}" if cells["id"] else "")
    return Person(name, login, cells["id"] or None, cells["sis user id"] or None,
                  cells["sis login id"] or None, cells["section"] or None)
