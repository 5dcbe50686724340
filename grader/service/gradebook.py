"""The class's scores, and the CSV files in and out: the roster, grades.csv
and Canvas's gradebook import."""

import csv
import io
from dataclasses import dataclass

from grader.exercises import Exercise
from grader.service import scores
from grader.service.core import Service
from grader.service.models import Student, Submission

MAX_ROSTER = 5000
# A cell a spreadsheet would run as a formula is kept as text.
FORMULA = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Row:
    student: Student
    scores: dict[str, float | None]  # exercise id -> the score that counts


def rows(service: Service) -> list[Row]:
    settings = {exercise_id: service.setting(exercise_id) for exercise_id in service.exercises}
    table = []
    for student in service.students():
        by_exercise: dict[str, list[Submission]] = {name: [] for name in service.exercises}
        for submission in service.attempts(student.id):
            by_exercise[submission.exercise_id].append(submission)
        table.append(Row(student, {exercise_id: scores.counted(taken, settings[exercise_id])
                                   for exercise_id, taken in by_exercise.items()}))
    return table


def parse_roster(text: str) -> list[tuple[str, str]]:
    """(name, email) pairs from a CSV whose header names the columns name and email;
    ValueError says what is wrong with it."""
    reader = csv.DictReader(io.StringIO(text))
    columns = {(field or "").strip().lower(): field for field in reader.fieldnames or []}
    if "name" not in columns or "email" not in columns:
        raise ValueError("the roster needs a header line with the columns name and email")
    found: dict[str, str] = {}
    for number, line in enumerate(reader, start=2):
        name = (line.get(columns["name"]) or "").strip()
        email = (line.get(columns["email"]) or "").strip()
        if not name and not email:
            continue
        if not name or not email or len(name) > 200 or len(email) > 254:
            raise ValueError(f"line {number}: a name and an email (or login) are needed")
        found.setdefault(email, name)
        if len(found) > MAX_ROSTER:
            raise ValueError(f"the roster holds more than {MAX_ROSTER} students")
    return [(name, email) for email, name in found.items()]


def _cell(value: object) -> str:
    text = "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
    return f"'{text}" if text.startswith(FORMULA) else text


def _csv(lines: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([[_cell(value) for value in line] for line in lines])
    return out.getvalue()


def grades_csv(table: list[Row], shown: list[Exercise]) -> str:
    header: list[object] = ["name", "email", *(exercise.id for exercise in shown)]
    return _csv([header] + [[row.student.name, row.student.email,
                             *(row.scores[exercise.id] for exercise in shown)] for row in table])


def canvas_csv(table: list[Row], shown: list[Exercise]) -> str:
    """Canvas's gradebook import: its five student columns, then one per
    exercise, with the points possible on the second line."""
    header: list[object] = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                            *(f"{exercise.title} ({exercise.id})" for exercise in shown)]
    possible: list[object] = ["Points Possible", "", "", "", "",
                              *(exercise.max_score for exercise in shown)]
    return _csv([header, possible] + [
        [row.student.name, "", "", row.student.email, "",
         *(row.scores[exercise.id] for exercise in shown)] for row in table])
