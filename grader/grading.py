"""Grading one submission: intake, sandbox, report. Always ends in a report."""

import time

from grader import intake, report
from grader.sandbox import SandboxUnavailable


def grade(exercise, path, sandbox, limits):
    """The schema-valid report for the submission at ``path``.

    ``intake.UsageError`` (nothing gradable at ``path``) is the only exception
    that escapes: callers check ``intake.kind(path)`` first.
    """
    started = time.monotonic()

    def elapsed():
        return (time.monotonic() - started) * 1000

    try:
        submission = intake.take(path, exercise.files)
    except intake.Rejected as why:
        return report.rejected(exercise, str(why), limits.facts(), elapsed())
    try:
        run = sandbox.run(exercise, submission, limits)
    except SandboxUnavailable as why:
        return report.grader_error(exercise, submission, str(why), sandbox.name,
                                   limits.facts(), elapsed())
    return report.build(exercise, submission, run, elapsed())
