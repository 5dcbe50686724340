"""The class's scores, and the CSV files out: grades.csv and Canvas's gradebook
import."""

import csv
import io
from dataclasses import dataclass

from grader.exercises import Exercise
from grader.service import overrides, scores
from grader.service.core import Service
from grader.service.models import ExerciseSetting, Student, Submission

# A cell a spreadsheet would run as a formula is kept as text.
FORMULA = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class Row:
    student: Student
    scores: dict[str, float | None]  # exercise id -> the score that counts
    late: set[str]  # the exercises whose counted score is from a late hand-in
    manual: set[str]  # and those whose counted score is the instructor's


def rows(service: Service, course_id: int) -> list[Row]:
    settings = {exercise_id: service.setting(course_id, exercise_id)
                for exercise_id in service.exercises}
    return [_row(student, service.attempts(student.id), settings)
            for student in service.students(course_id)]


def _row(student: Student, taken: list[Submission],
         settings: dict[str, ExerciseSetting]) -> Row:
    row = Row(student, {}, set(), set())
    for exercise_id, setting in settings.items():
        found = scores.counting([s for s in taken if s.exercise_id == exercise_id], setting)
        row.scores[exercise_id] = found[1] if found else None
        if found and found[0].late:
            row.late.add(exercise_id)
        if found and overrides.manual(found[0].notes):
            row.manual.add(exercise_id)
    return row


def _cell(value: object) -> str:
    text = "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
    return f"'{text}" if text.startswith(FORMULA) else text


def csv_text(lines: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([[_cell(value) for value in line] for line in lines])
    return out.getvalue()


def grades_csv(table: list[Row], shown: list[Exercise]) -> str:
    header: list[object] = ["name", "email", *(exercise.id for exercise in shown)]
    return csv_text([header] + [[row.student.name, row.student.email,
                             *(row.scores[exercise.id] for exercise in shown)] for row in table])


def canvas_csv(table: list[Row], shown: list[tuple[Exercise, ExerciseSetting]]) -> str:
    """Canvas's gradebook import: its five student columns (the ids the roster
    import kept), then one per exercise, named as the instructor set it (Canvas
    matches "Name (assignment id)" to its assignment), with the points possible
    on the second line."""
    header: list[object] = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                            *(setting.column_name or exercise.title
                              for exercise, setting in shown)]
    possible: list[object] = ["Points Possible", "", "", "", "",
                              *(exercise.max_score for exercise, _ in shown)]
    return csv_text([header, possible] + [
        [row.student.name, row.student.canvas_id, row.student.sis_user_id,
         row.student.sis_login_id, row.student.section,
         *(row.scores[exercise.id] for exercise, _ in shown)] for row in table])
