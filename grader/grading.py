"""Grading a submission: intake, sandbox, report. Always ends in a report."""

import time

from grader import intake, report
from grader.sandbox import SandboxUnavailable


class _Clock:
    def __init__(self):
        self.started = time.monotonic()

    def ms(self):
        return (time.monotonic() - self.started) * 1000


def grade(exercise, path, sandbox, limits):
    """The schema-valid report for the submission at ``path``.

    ``intake.UsageError`` (nothing gradable at ``path``) is the only exception
    that escapes: callers check ``intake.kind(path)`` first.
    """
    clock = _Clock()
    try:
        submission = intake.take(path, exercise.files)
    except intake.Rejected as why:
        return report.rejected(exercise, str(why), limits.facts(), clock.ms())
    return grade_alike(exercise, [submission], sandbox, limits)[0]


def grade_alike(exercise, submissions, sandbox, limits, cancel=None):
    """The reports of submissions whose files are identical, from one sandbox run.

    Each report keeps its own submission's facts (ignored files). ``cancel``
    (a threading.Event) stops the run: ``sandbox.Cancelled`` then escapes and
    no report is made, since an interrupted run says nothing about the code.
    """
    clock = _Clock()
    try:
        run = sandbox.run(exercise, submissions[0], limits, cancel=cancel)
    except SandboxUnavailable as why:
        return [report.grader_error(exercise, submission, str(why), sandbox.name,
                                    limits.facts(), clock.ms()) for submission in submissions]
    return [report.build(exercise, submission, run, clock.ms()) for submission in submissions]
