"""What the pages' forms carry: CSRF subjects, times and percentages."""

from datetime import datetime, tzinfo

from starlette.datastructures import FormData

from grader.service import times
from grader.service.models import Student
from grader.service.people import Staff


def student_subject(student: Student) -> str:
    """What a student's forms' CSRF token is made from: their token's hash."""
    return f"student:{student.token_hash}"


def staff_subject(staff: Staff) -> str:
    """What a staff member's forms' CSRF token is made from: their credential's hash."""
    return f"staff:{staff.credential}"


def percent(value: object) -> float:
    """A percentage from a form, as a fraction; ValueError when not a number."""
    text = str(value or "0").strip().rstrip("%").strip()
    return float(text) / 100


def picked(form: FormData, name: str, where: tzinfo) -> datetime | None:
    """The time a form's date and time inputs ``<name>_date`` and ``<name>_time`` pick
    in the course's zone, as stored (UTC), or its ``<name>`` (a datetime-local input's
    YYYY-MM-DDTHH:MM, as a script may send it); ValueError for a wrong one."""
    whole = str(form.get(name) or "").strip()
    if whole:
        day, _, hour = whole.partition("T")
        return times.from_form(day, hour, where)
    return times.from_form(form.get(f"{name}_date"), form.get(f"{name}_time"), where)
