"""Grading: the one way a submission becomes a report.

Every front end (the command line's grade, batch and check-solutions, the
Gradescope run, the service) opens a sandbox here, grades through
``grade``, ``grade_alike`` or ``grade_taken`` and renders what comes back;
none of them reaches into the sandboxes or the report's assembly. A
submission is taken in once: by ``grade``, or before (batch's roster, the
service's uploads, whose stored files ``grade_taken`` grades as they are).
Every report that leaves is valid against the schema, and whatever happens
to one submission ends in a report for it: graded, rejected (the files could
not be taken in) or an error (the grader failed; no score is charged).
"""

import copy
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from grader import intake, report, sandbox
from grader.errors import UsageError
from grader.exercises import Exercise, Limits
from grader.intake import Submission
from grader.layouts import CHOICES, NONE
from grader.report import Report  # valid against grader/schema/report.schema.json
from grader.sandbox import Cancelled, Sandbox, SandboxUnavailable

log = logging.getLogger(__name__)
SANDBOX_LOG_TAIL = 2000  # characters of a failed run's own log kept in the host's log

# A run the machine starved is run again, this often in all, after a pause that
# grows by this much each time (the load may have fallen meanwhile).
LOAD_TRIES = 3
LOAD_PAUSE_SECONDS = 10

__all__ = ["CHOICES", "Cancelled", "Report", "UsageError", "check", "close", "failed", "grade",
           "grade_alike", "grade_taken", "isolated", "open_sandbox", "previous", "reject",
           "sandbox_for", "until_timed"]


class _Clock:
    def __init__(self) -> None:
        self.started = time.monotonic()

    def ms(self) -> float:
        return (time.monotonic() - self.started) * 1000


def open_sandbox(choice: str, *, warm: int = 0,
                 warn: Callable[[str], None] | None = None) -> Sandbox:
    """The sandbox of the layout that ``choice`` (one of CHOICES) picks here
    (``grader.layouts``).

    Where none can grade (``docker`` with no engine, image or bubblewrap; the
    local sandbox as root without bubblewrap), every submission is graded as
    a grader error that says why (``sandbox.Refused``). ``auto`` takes Docker
    where it can and else the local sandbox, after ``warn``-ing why and which
    it is (a boundary only with bubblewrap).
    ``warm``: containers the Docker sandbox starts ahead of need (batches).
    """
    return sandbox.backend(choice, warm=warm, warn=warn)


def isolated(choice: str, *, warm: int = 0) -> Sandbox:
    """The sandbox for grading untrusted code in bulk: Docker, or local only
    when asked for by name; a UsageError where the table refuses the choice."""
    chosen = open_sandbox(choice, warm=warm)
    if isinstance(chosen, sandbox.Unavailable):
        raise UsageError(chosen.why + (". batch grades untrusted code only in Docker; give "
                                       "--sandbox local to grade in the local sandbox"
                                       if choice == "docker" else ""))
    return chosen


def close(chosen: Sandbox) -> None:
    """Let go of what a sandbox holds between runs (Docker's warm containers)."""
    sandbox.close(chosen)


@contextmanager
def sandbox_for(choice: str, *, warn: Callable[[str], None] | None = None) -> Iterator[Sandbox]:
    """``open_sandbox`` for the length of a ``with`` block."""
    chosen = open_sandbox(choice, warn=warn)
    try:
        yield chosen
    finally:
        close(chosen)


def check(path: str | Path) -> None:
    """A UsageError unless ``path`` is something to grade: front ends call it
    before they open a sandbox."""
    intake.kind(path)


def grade(exercise: Exercise, path: str | Path, chosen: Sandbox, limits: Limits,
          quick: bool = False) -> Report:
    """The report of the submission at ``path`` (a folder, a .py file or a .zip);
    ``quick``: an agent's self-check, fewer games than its grade.

    A UsageError (nothing gradable at ``path``: no such file, a device) is the
    only exception that escapes, and it escapes before anything is graded.
    """
    clock = _Clock()
    check(path)
    try:
        submission = intake.take_for(path, exercise.files, exercise.by_play)
    except intake.Rejected as why:
        return report.rejected(exercise, str(why), limits.facts(), clock.ms())
    return until_timed(lambda: grade_alike(exercise, [submission], chosen, limits,
                                           quick=quick))[0]


def until_timed(grade_them: Callable[[], list[Report]], tries: int = LOAD_TRIES,
                pause: Callable[[float], object] = time.sleep) -> list[Report]:
    """``grade_them()``'s reports, made again (after a pause that grows) while the
    machine starves the run, ``tries`` times in all: a run it starved has no
    verdict (``report.overloaded``). The last one stands, an error that says so."""
    for attempt in range(1, tries + 1):
        made = grade_them()
        if attempt == tries or not any(map(report.overloaded, made)):
            return made
        pause(LOAD_PAUSE_SECONDS * attempt)
    raise AssertionError("unreachable: the last attempt returns")


def grade_alike(exercise: Exercise, submissions: Sequence[Submission], chosen: Sandbox,
                limits: Limits, cancel: threading.Event | None = None,
                quick: bool = False) -> list[Report]:
    """The reports of submissions whose files are identical, from one sandbox run.

    Each report keeps its own submission's facts (ignored files). A failure of
    the grader (no sandbox, a bug) makes each an error report, never an
    exception. ``cancel`` stops the run: ``Cancelled`` then escapes and no
    report is made, since an interrupted run says nothing about the code. An
    exercise with a match and no suite (the agent) is graded by play instead.
    """
    clock = _Clock()
    layout = sandbox.layout_of(chosen)
    # The host only waits while the sandbox runs: the reports' validator is made then.
    report.ready()
    try:
        if exercise.by_play:
            # imported here: a suite's grading (the Gradescope package) carries no match
            from grader.match import handin

            played = handin.grade(exercise, submissions[0].files, layout, quick=quick,
                                  ignored=submissions[0].ignored)
            return [copy.deepcopy(played) for _ in submissions]
        run = chosen.run(exercise, submissions[0], limits, cancel=cancel)
    except SandboxUnavailable as why:
        return _failed(exercise, submissions, str(why), chosen, limits, clock)
    except Cancelled:
        raise
    except Exception as exc:  # a grader bug must cost one run, not a class
        log.exception("%s: the grader failed", exercise.id)
        return _failed(exercise, submissions, f"the grader failed: {exc!r}", chosen, limits,
                       clock)
    made = [report.build(exercise, submission, run, clock.ms(), layout)
            for submission in submissions]
    if made[0]["status"] == "error" and not run.overloaded:
        # The grader's own failure: its sandbox's log (never shown to the student) says why.
        log.error("%s: the sandbox's run failed (exit code %s): %s", exercise.id, run.exit_code,
                  run.log[-SANDBOX_LOG_TAIL:] or "its log is empty")
    return made


def grade_taken(exercise: Exercise, files: dict[str, bytes], chosen: Sandbox,
                limits: Limits, cancel: threading.Event | None = None) -> Report:
    """The report of files the intake took earlier (the service's stored hand-ins,
    checked as they were uploaded): graded as they are, not taken in again.
    ``cancel`` stops the run (``Cancelled`` escapes: no report)."""
    return grade_alike(exercise, [Submission(files)], chosen, limits, cancel)[0]


def failed(exercise: Exercise, files: dict[str, bytes], why: str, chosen: Sandbox | None,
           limits: Limits) -> Report:
    """The grader-error report of files taken earlier that could not be graded
    (``why``; ``chosen``: the sandbox they were to be graded in, if any): no
    score is charged."""
    layout = sandbox.layout_of(chosen) if chosen is not None else NONE
    return report.grader_error(exercise, Submission(files), why, layout, limits.facts())


def _failed(exercise: Exercise, submissions: Sequence[Submission], why: str, chosen: Sandbox,
            limits: Limits, clock: _Clock) -> list[Report]:
    return [report.grader_error(exercise, submission, why, sandbox.layout_of(chosen),
                                limits.facts(), clock.ms()) for submission in submissions]


def reject(exercise: Exercise, why: str, limits: Limits) -> Report:
    """The report of a submission whose files could not be taken in: zero points."""
    return report.rejected(exercise, why, limits.facts())


def previous(path: Path) -> Report | None:
    """A report written earlier (by batch), or None where there is none or it is
    not a valid report."""
    import jsonschema

    try:
        return report.validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, jsonschema.ValidationError):
        return None
