"""What the pages show, gathered from the service for the templates."""

import json
from dataclasses import dataclass, field

from grader import render
from grader.exercises import Exercise
from grader.service import scores
from grader.service.core import Service, when
from grader.service.models import ExerciseSetting, Submission

NOT_COUNTED = "we could not grade this, it does not count"
REPLACED = "replaced by a later hand-in before it was graded, it does not count"


@dataclass
class Attempt:
    id: int
    exercise_id: str
    received: str
    late: bool
    state: str  # "waiting", "replaced", "graded" or "error"
    result: str  # in words
    report_text: str | None = None


@dataclass
class ExerciseView:
    exercise: Exercise
    setting: ExerciseSetting
    counted: float | None
    next_allowed: str | None = None
    closed: bool = False
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def deadline(self) -> str:
        return when(self.setting.deadline) if self.setting.deadline else "none"

    @property
    def hard_deadline(self) -> str | None:
        return when(self.setting.hard_deadline) if self.setting.hard_deadline else None


def attempt(submission: Submission, setting: ExerciseSetting, with_report: bool) -> Attempt:
    report = scores.shown(submission)
    shown = Attempt(submission.id, submission.exercise_id, when(submission.received_at),
                    submission.late, "waiting", "waiting to be graded")
    if report is None:
        if submission.replaced_by is not None:
            shown.state, shown.result = "replaced", REPLACED
        return shown
    shown.state = report.status
    if report.status != "graded" or report.score is None:
        shown.result = NOT_COUNTED
    else:
        shown.result = f"{report.score:g}/{report.max_score:g}"
        counted = scores.points(submission, setting)
        if submission.late and counted is not None:
            shown.result += (f", late: counts {counted:g} after the "
                             f"{setting.late_penalty:.0%} penalty")
    if with_report:
        shown.report_text = render.to_text(json.loads(report.body))
    return shown


def exercises_of(service: Service, student_id: int, reports: bool = False) -> list[ExerciseView]:
    """Each exercise with the student's attempts (newest first) and the score that counts."""
    taken = service.attempts(student_id, bodies=reports)
    now = service.now()
    views = []
    for exercise in service.exercises.values():
        setting = service.setting(exercise.id)
        mine = [s for s in taken if s.exercise_id == exercise.id]
        allowed = service.next_allowed(student_id, exercise.id)
        views.append(ExerciseView(
            exercise, setting, scores.counted(mine, setting),
            next_allowed=when(allowed) if allowed else None,
            closed=bool(setting.hard_deadline and now > setting.hard_deadline),
            attempts=[attempt(s, setting, reports) for s in reversed(mine)]))
    return views
