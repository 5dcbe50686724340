"""The class's scores: the gradebook's rows (each student's counted scores, by
the deadlines in force for them), its sorting and filtering, each exercise's
statistics, the missing and late work, and the CSV files out: grades.csv and
Canvas's gradebook import."""

import csv
import io
import statistics
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from grader.exercises import Exercise
from grader.service import overrides, scores
from grader.service.core import Service
from grader.service.latedays import Spent
from grader.service.models import ExerciseSetting, Note, Student, Submission
from grader.service.term import is_open

# A cell a spreadsheet would run as a formula is kept as text.
FORMULA = ("=", "+", "-", "@", "\t", "\r")
BINS = 10  # a histogram's bars, over 0 to the exercise's points


@dataclass
class Row:
    student: Student
    scores: dict[str, float | None]  # exercise id -> the score that counts
    late: set[str]  # the exercises whose counted score is from a late hand-in
    manual: dict[str, Note]  # and those whose counted score is the instructor's
    handed_in: set[str] = field(default_factory=set)  # exercises with an attempt
    settings: dict[str, ExerciseSetting] = field(default_factory=dict)  # their own
    late_days: Spent = field(default_factory=Spent)


def rows(service: Service, course_id: int) -> list[Row]:
    return [_row(student, service.students.attempts(student.id),
                 *service.term.own_settings_spent(course_id, student.id))
            for student in service.students.of_course(course_id)]


def _row(student: Student, taken: list[Submission],
         settings: dict[str, ExerciseSetting], late_days: Spent) -> Row:
    row = Row(student, {}, set(), {}, {s.exercise_id for s in taken}, settings, late_days)
    for exercise_id, setting in settings.items():
        mine = [s for s in taken if s.exercise_id == exercise_id]
        found = scores.counting(mine, setting)
        row.scores[exercise_id] = found[1] if found else None
        manual = overrides.in_force(mine)
        if manual is not None:
            row.manual[exercise_id] = manual[1]
        elif found and scores.late(found[0], setting):
            row.late.add(exercise_id)
    return row


@dataclass(frozen=True)
class View:
    """What the gradebook shows, from its query: a section's students (all when
    empty), one exercise's column (all when empty), sorted by a column."""

    section: str = ""
    exercise: str = ""
    sort: str = "name"  # "name", "section", or an exercise's id
    descending: bool = False

    @classmethod
    def of(cls, query: dict[str, str], exercises: dict[str, Exercise]) -> "View":
        """The view a query asks for; what it can't mean is left at the default."""
        exercise = query.get("exercise", "")
        sort = query.get("sort", "name")
        return cls(query.get("section", ""), exercise if exercise in exercises else "",
                   sort if sort in ("name", "section", *exercises) else "name",
                   query.get("order") == "desc")

    def query(self, **changed: str) -> str:
        """This view's query string, with ``changed`` values."""
        values = {"section": self.section, "exercise": self.exercise, "sort": self.sort,
                  "order": "desc" if self.descending else "asc", **changed}
        return urlencode({key: value for key, value in values.items() if value})

    def sorted_by(self, column: str) -> str:
        """The query that sorts by ``column``: ascending, or the other way if it is
        sorted by it already."""
        flip = column == self.sort and not self.descending
        return self.query(sort=column, order="desc" if flip else "asc")

    def shown(self, table: list[Row]) -> list[Row]:
        chosen = [row for row in table
                  if not self.section or (row.student.section or "") == self.section]

        def key(row: Row) -> tuple[Any, ...]:
            if self.sort == "name":
                return (row.student.name.casefold(), row.student.id)
            if self.sort == "section":
                return (row.student.section or "", row.student.name.casefold())
            score = row.scores.get(self.sort)
            # No score sorts below every score, whichever the order.
            return (score is None) ^ self.descending, score or 0.0, row.student.name

        return sorted(chosen, key=key, reverse=self.descending)


def sections(table: list[Row]) -> list[str]:
    return sorted({row.student.section for row in table if row.student.section})


@dataclass
class Bar:
    low: float
    high: float
    count: int

    @property
    def label(self) -> str:
        return f"{self.low:g} to {self.high:g}"


@dataclass
class Stats:
    """One exercise's counted scores: how many, their mean and median, and a
    histogram of BINS bars (the last takes full marks too)."""

    exercise: Exercise
    count: int
    mean: float | None
    median: float | None
    bars: list[Bar]

    @property
    def tallest(self) -> int:
        return max((bar.count for bar in self.bars), default=0)


def stats(table: list[Row], exercise: Exercise) -> Stats:
    given = [score for row in table if (score := row.scores.get(exercise.id)) is not None]
    width = exercise.max_score / BINS
    bars = [Bar(round(i * width, 4), round((i + 1) * width, 4), 0) for i in range(BINS)]
    for score in given:
        bars[min(BINS - 1, max(0, int(score / width)))].count += 1
    return Stats(exercise, len(given), round(statistics.mean(given), 2) if given else None,
                 round(statistics.median(given), 2) if given else None, bars)


@dataclass
class Work:
    """A student's exercise that is missing (no score counts) or late."""

    student: Student
    exercise: Exercise
    setting: ExerciseSetting  # theirs
    handed_in: bool  # missing, though handed in: waiting, or could not be graded


def missing(table: list[Row], exercises: list[Exercise]) -> list[Work]:
    """Each active student's exercise (of ``exercises``: the open ones) where no
    score counts."""
    return [Work(row.student, exercise, row.settings[exercise.id],
                 exercise.id in row.handed_in)
            for exercise in exercises for row in table
            if row.student.active and row.scores.get(exercise.id) is None]


def late(table: list[Row], exercises: list[Exercise]) -> list[Work]:
    """Each student's exercise whose counted score is from a late hand-in."""
    return [Work(row.student, exercise, row.settings[exercise.id], True)
            for exercise in exercises for row in table if exercise.id in row.late]


def canvas_exercises(service: Service, course_id: int) -> list[tuple[Exercise, ExerciseSetting]]:
    """The exercises canvas.csv has a column for: those the instructor chose, and
    by default those open to students now."""
    now = service.now()
    chosen = []
    for exercise in service.exercises.values():
        setting = service.term.setting(course_id, exercise.id)
        if setting.in_canvas or (setting.in_canvas is None and is_open(setting, now)):
            chosen.append((exercise, setting))
    return chosen


def _cell(value: object) -> str:
    text = "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
    return f"'{text}" if text.startswith(FORMULA) else text


def csv_text(lines: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([[_cell(value) for value in line] for line in lines])
    return out.getvalue()


def grades_csv(table: list[Row], shown: list[Exercise]) -> str:
    """Each student's counted scores; and the late days they used, where the course
    gives any."""
    late = any(row.late_days for row in table)
    header: list[object] = ["name", "email", *(exercise.id for exercise in shown),
                            *(["late days used"] if late else [])]
    return csv_text([header] + [[row.student.name, row.student.email,
                                 *(row.scores[exercise.id] for exercise in shown),
                                 *([row.late_days.used] if late else [])] for row in table])


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
