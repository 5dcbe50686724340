"""What the pages show, gathered from the service for the templates."""

import hashlib
import json
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import Any, NamedTuple

from markupsafe import Markup
from sqlalchemy import bindparam, select

from grader import layouts, report_parts
from grader.exercises import Exercise
from grader.service import overrides, rubrics, scores
from grader.service.core import Service
from grader.service.models import ExerciseSetting, Note, Report, Student, Submission
from grader.service.term import allowed_after, is_open
from grader.service.times import when

NOT_COUNTED = "we could not grade this, it does not count"
REPLACED = "replaced by a later hand-in before it was graded, it does not count"


@dataclass
class Attempt:
    id: int
    number: int  # the student's own count for this exercise, from 1
    exercise_id: str
    received: str
    late: bool
    state: str  # "waiting", "replaced", "graded" or "error"
    result: str  # in words
    graded: str | None = None  # the grader's score, where a manual score took its place
    report: dict[str, Any] | None = None  # the report's JSON
    notes: list[Note] = field(default_factory=list)

    @property
    def asking(self) -> bool:
        """Whether a regrade request of this attempt waits for its answer."""
        return overrides.open_request(self.notes)


@dataclass
class ExerciseView:
    exercise: Exercise
    setting: ExerciseSetting  # with the student's extension
    counted: float | None
    next_allowed: str | None = None
    closed: bool = False
    attempts: list[Attempt] = field(default_factory=list)
    shown: bool = True  # open to students
    where: tzinfo = UTC  # the course's time zone
    manual: Note | None = None  # the manual score in force

    @property
    def deadline(self) -> str:
        return when(self.setting.deadline, self.where) if self.setting.deadline else "none"

    @property
    def hard_deadline(self) -> str | None:
        return when(self.setting.hard_deadline, self.where) if self.setting.hard_deadline \
            else None

    @property
    def late_terms(self) -> str | None:
        """What becomes of work handed in after the deadline, in words (None without
        one): the penalty stated whenever there is one, hard deadline or not."""
        hard = self.hard_deadline
        if not self.setting.deadline:
            return f"nothing is taken after {hard}" if hard else None
        penalty = self.setting.late_penalty
        cost = f"with a {penalty:.0%} penalty" if penalty else "without penalty"
        return f"late work is taken{f' until {hard}' if hard else ''} {cost}"

    @property
    def pending(self) -> bool:
        return any(attempt.state == "waiting" for attempt in self.attempts)


def attempt(submission: Submission, setting: ExerciseSetting, with_report: bool,
            number: int, where: tzinfo = UTC) -> Attempt:
    """One attempt as shown, late or not by ``setting`` (the deadline in force now)."""
    report = scores.shown(submission)
    late = scores.late(submission, setting)
    shown = Attempt(submission.id, number, submission.exercise_id,
                    when(submission.received_at, where), late, state(submission),
                    "waiting to be graded", notes=list(submission.notes))
    if report is None:
        if shown.state == "replaced":
            shown.result = REPLACED
        return shown
    if report.status != "graded" or report.score is None:
        shown.result = NOT_COUNTED
    else:
        shown.result = rubrics.said(report.score, report.max_score, submission.marks)
        counted = scores.points(submission, setting)
        if late and counted is not None:
            shown.result += (f", late: counts {counted:g} after the "
                             f"{setting.late_penalty:.0%} penalty")
    _manual_onto(shown, submission, report.max_score, where)
    if with_report:
        shown.report = with_parts(json.loads(report.body))
    return shown


def with_parts(report: dict[str, Any]) -> dict[str, Any]:
    """The report with each test's message as the page shows it (``shown``): text,
    its board as a table, its named values (``grader.report_parts``; escaped there);
    and how it was graded (``graded_in``: the layout's line, "" for an older report)."""
    report["graded_in"] = layouts.said(report["sandbox"])
    for number, test in enumerate(report["tests"], 1):
        test["shown"] = Markup(report_parts.to_html(report_parts.parts(test), number))
    return report


def _manual_onto(shown: Attempt, submission: Submission, max_score: float,
                 where: tzinfo) -> None:
    """A manual score takes the result's place; the grader's stays beside it."""
    manual = overrides.manual(submission.notes)
    if manual is None or manual.score is None:
        return
    shown.graded = shown.result
    shown.result = (f"{manual.score:g}/{max_score:g}, set by {manual.author} on "
                    f"{when(manual.created_at, where)}: {manual.text}")


def numbered(submissions: list[Submission]) -> dict[int, int]:
    """Each submission's number among its student's attempts at its exercise, from 1."""
    counts: dict[str, int] = {}
    numbers = {}
    for submission in sorted(submissions, key=lambda s: (s.received_at, s.id)):
        counts[submission.exercise_id] = counts.get(submission.exercise_id, 0) + 1
        numbers[submission.id] = counts[submission.exercise_id]
    return numbers


def exercises_of(service: Service, student: Student, reports: bool = False,
                 hidden: bool = False) -> list[ExerciseView]:
    """Each exercise (those hidden from students too when ``hidden``) with the
    student's attempts (newest first) and the score that counts."""
    taken = service.students.attempts(student.id, bodies=reports)
    numbers = numbered(taken)
    settings = service.term.own_settings(student.course_id, student.id)
    where = service.access.zone(student.course_id)
    now = service.now()
    views = []
    for exercise in service.exercises.values():
        setting = settings[exercise.id]
        open_now = is_open(setting, now)
        if not (open_now or hidden):
            continue
        mine = [s for s in taken if s.exercise_id == exercise.id]
        allowed = allowed_after(setting, max((s.received_at for s in mine), default=None),
                                now)
        manual = overrides.in_force(mine)
        views.append(ExerciseView(
            exercise, setting, scores.counted(mine, setting),
            next_allowed=when(allowed, where) if allowed else None,
            closed=bool(setting.hard_deadline and now > setting.hard_deadline),
            attempts=[attempt(s, setting, reports, numbers[s.id], where)
                      for s in reversed(mine)],
            shown=open_now, where=where, manual=manual[1] if manual else None))
    return views


def state(submission: Submission) -> str:
    """An attempt's state: its report's status, else replaced or waiting."""
    return _state(scores.shown(submission), submission.replaced_by)


def _state(report: scores.ReportState | None, replaced_by: int | None) -> str:
    if report is not None:
        return report.status
    return "replaced" if replaced_by is not None else "waiting"


class ReportRow(NamedTuple):
    """A report's id and status, as the status reads them."""

    id: int
    status: str


# A student's attempts, newest first, each with its reports' ids and statuses (a row
# each; one with none while it waits): the status's one query but the settings'.
ATTEMPT_STATES = (
    select(Submission.id, Submission.exercise_id, Submission.replaced_by,
           Report.id.label("report_id"), Report.status)
    .outerjoin(Report, Report.submission_id == Submission.id)
    .where(Submission.student_id == bindparam("student"))
    .order_by(Submission.received_at.desc(), Submission.id.desc()))


def status(service: Service, student: Student) -> dict[str, object]:
    """What the student's page polls while something waits: the state of each attempt
    at the exercises open to them (newest first), and ``seen``, which names these
    states. Two queries, built once, and no ORM objects: it is asked often, the
    page's own views take more."""
    open_ids = service.term.open_exercises(student.course_id)
    with service.sessions() as session:
        rows = session.execute(ATTEMPT_STATES, {"student": student.id}).all()
    reports: dict[int, list[ReportRow]] = {}
    replaced: dict[int, int | None] = {}
    for row in rows:
        if row.exercise_id in open_ids:
            replaced[row.id] = row.replaced_by
            if row.report_id is not None:
                reports.setdefault(row.id, []).append(ReportRow(row.report_id, row.status))
    attempts = {str(attempt): _state(scores.chosen(reports.get(attempt, [])), replaced_by)
                for attempt, replaced_by in replaced.items()}
    seen = hashlib.sha256(json.dumps(attempts).encode()).hexdigest()[:16]
    return {"pending": "waiting" in attempts.values(), "attempts": attempts, "seen": seen}


def one(service: Service, submission: Submission, course_id: int) -> Attempt:
    """One attempt (of the course's ``submission``) with its report and notes,
    numbered among its student's."""
    mine = service.students.attempts(submission.student_id, submission.exercise_id)
    setting = service.term.own_setting(course_id, submission.student_id, submission.exercise_id)
    return attempt(submission, setting, True, numbered(mine)[submission.id],
                   service.access.zone(course_id))
