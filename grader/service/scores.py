"""Which report a submission shows, and the score that counts for an exercise.

A submission's report is its newest graded one, else its newest (an error);
an error report counts for nothing, not as a zero. A late submission loses
its exercise's penalty, a fraction of its score; late is judged by the
deadline in force now (the student's extension, if any), not as it was at
hand-in, so that an extension granted later takes a late attempt on time.
The items of the exercise's rubric applied to a submission add their points to
its report's score first (see ``rubrics``). The exercise's rule then takes the
best of the counting submissions, or the last of them. A manual score (the
instructor's, with a comment) stands over all of these, and is taken as given,
until the instructor removes it.
"""

from collections.abc import Mapping, Sequence
from typing import Protocol, TypeVar

from grader.service import overrides, rubrics
from grader.service.models import ExerciseSetting, Report, Submission


class ReportState(Protocol):
    """A kept report as far as choosing one goes (a Report, or its id and status)."""

    @property
    def id(self) -> int: ...

    @property
    def status(self) -> str: ...


K = TypeVar("K", bound=ReportState)


def chosen(reports: Sequence[K]) -> K | None:
    """Of one submission's reports, the one it is shown with: None while it waits."""
    graded = [report for report in reports if report.status == "graded"]
    among = graded or reports
    return max(among, key=lambda report: report.id) if among else None


def shown(submission: Submission) -> Report | None:
    """The report a submission is shown with: None while it waits to be graded."""
    return chosen(submission.reports)


def late(submission: Submission, setting: ExerciseSetting) -> bool:
    """Whether the submission is late by ``setting``'s deadline (the student's own)."""
    return bool(setting.deadline and submission.received_at > setting.deadline)


class Scored(Protocol):
    """A report as far as its score goes (a Report, or a regrade preview's)."""

    @property
    def status(self) -> str | None: ...

    @property
    def score(self) -> float | None: ...

    @property
    def max_score(self) -> float | None: ...


def points(submission: Submission, setting: ExerciseSetting,
           report: Scored | None = None) -> float | None:
    """What the submission's grading (``report``, or the one it is shown with) counts
    for, its rubric's points added and the penalty applied; None if it does not count."""
    report = report or shown(submission)
    if report is None or report.status != "graded" or report.score is None \
            or report.max_score is None:
        return None
    kept = 1 - setting.late_penalty if late(submission, setting) else 1
    return round(rubrics.adjusted(report.score, report.max_score, submission.marks) * kept, 4)


def counting(submissions: Sequence[Submission], setting: ExerciseSetting,
             instead: Mapping[int, Scored] | None = None) -> tuple[Submission, float] | None:
    """The submission whose score counts, with that score; None when none counts.
    ``instead`` gives the reports some submissions would be shown with (by id)."""
    manual = overrides.in_force(submissions)
    if manual is not None and manual[1].score is not None:
        return manual[0], manual[1].score
    scored = [(submission.received_at, submission.id, value, submission)
              for submission in submissions
              if (value := points(submission, setting,
                                  (instead or {}).get(submission.id))) is not None]
    if not scored:
        return None
    if setting.score_rule == "last":
        chosen = max(scored, key=lambda one: one[:2])
    else:
        chosen = max(scored, key=lambda one: (one[2], one[:2]))
    return chosen[3], chosen[2]


def counted(submissions: Sequence[Submission], setting: ExerciseSetting) -> float | None:
    """The exercise's score from one student's ``submissions``; None when none counts."""
    found = counting(submissions, setting)
    return None if found is None else found[1]
