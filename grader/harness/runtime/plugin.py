"""The pytest plugin that turns a suite run into grading results.

It gives the suites their fixtures (``student``, ``notes``), turns each test's
outcome into a result with a status the report understands, and writes one
JSON line per finished test to the results channel, so that a run killed
half-way still leaves every finished verdict behind.
"""

from collections.abc import Generator, Mapping
from pathlib import Path
from typing import Any, TextIO

import pytest

from grader.contracts import events, hints
from grader.contracts.job import Job
from grader.contracts.owntime import Deadline, Overloaded, OwnClock
from grader.harness.runtime.faults import (
    ChangedGrader,
    ImportFailed,
    StudentFault,
    describe_import_failure,
)
from grader.harness.runtime.spawn import BrokerSpawner, LocalSpawner
from grader.harness.runtime.steps import Reply, Step
from grader.harness.runtime.student import Student
from grader.harness.runtime.verdict import Mismatch


class Budget:
    """The deadline of each call: the per-call limit, within the test's own, both
    on the run's own clock."""

    def __init__(self, clock: OwnClock, call_seconds: float, test_seconds: float) -> None:
        self.clock = clock
        self.call_seconds = call_seconds
        self.test_end = clock.deadline(test_seconds)

    def deadline(self) -> Deadline:
        return self.clock.deadline(self.call_seconds).sooner(self.test_end)


class BoundStudent:
    """The student's worker as one test sees it: steps carry the test's budget."""

    def __init__(self, student: Student, budget: Budget) -> None:
        self.student = student
        self.budget = budget

    def run(self, chains: list[list[Step]]) -> list[tuple[list[Reply], StudentFault | None]]:
        return self.student.run(chains, self.budget.deadline)

    def restart(self) -> None:
        """A fresh import of the student's files for the next calls."""
        self.student.stop()


# Where the wall clock alone times the run (no control group in reach).
WALL_CLOCK_NOTE = ("For your instructor: this run was timed by the wall clock (no control group "
                   "of its own was in reach), so a busy machine may have counted against its "
                   "time limits")
# The backstop of a test whose own check (not a call of the student's) runs on:
# the grader's time, never charged.
CHECK_BACKSTOP = "Timeout"
IMPORT_FAILED = "not run: your files could not be imported (the report's message says why)"
# A fault in the grader's own check of one test: that test alone is left unjudged.
NOT_CHECKED = "could not be checked: the grader failed in its own check of this test"


def _status(excinfo: pytest.ExceptionInfo[BaseException], told_import: bool,
            known: Mapping[str, str]) -> tuple[str, str, list[str], bool]:
    """(status, message, mistakes, internal) of a test that did not pass;
    ``known``: the mistakes its exercise may name."""
    exc = excinfo.value
    if isinstance(exc, Mismatch) and hints.unknown(exc.mistakes, known):
        return "error", (f"{NOT_CHECKED} (it named unknown mistakes "
                         f"{hints.unknown(exc.mistakes, known)!r}); not a mistake of yours: "
                         "your instructor is told, to grade it again"), [], True
    if isinstance(exc, Mismatch):
        return "failed", exc.message, exc.mistakes, False
    if isinstance(exc, ImportFailed) and told_import:
        return "error", IMPORT_FAILED, [], False  # told once, in the first test
    if isinstance(exc, StudentFault):
        return exc.status, str(exc), _fault_mistakes(exc), False
    return "error", (f"{NOT_CHECKED} ({excinfo.typename}: {exc}); not a mistake of "
                     "yours: your instructor is told, to grade it again"), [], True


def _starved(excinfo: pytest.ExceptionInfo[BaseException]) -> bool:
    """Whether the test ended for the machine's want of time, not the student's:
    a step past the wall clock's backstop, or pytest-timeout's, far above it."""
    return isinstance(excinfo.value, Overloaded) or (
        excinfo.typename == "Failed" and str(excinfo.value).lstrip().startswith(CHECK_BACKSTOP))


def _fault_mistakes(exc: StudentFault) -> list[str]:
    if isinstance(exc, ImportFailed):
        return ["syntax_error" if exc.failure.get("kind") == "syntax" else "import_crash"]
    return ["changed_grader"] if isinstance(exc, ChangedGrader) else []


class Grading:
    """Registered by the supervisor with the job's settings and results channel."""

    def __init__(self, job: Job, channel: TextIO,
                 spawner: LocalSpawner | BrokerSpawner | None = None) -> None:
        self._job = job
        self._channel = channel
        self._spawner = spawner
        limits = job["limits"]
        self._clock = OwnClock(job.get("clock", ""))
        self._student = Student(job["submission"], job["modules"], job["provided"],
                                limits["output_bytes"], spawner, job["game"], self._clock,
                                job["provides"], job.get("worker_folders", []))
        self._overloaded: str | None = None  # why the machine stopped the run
        self._notes: list[str] = []
        self._results: dict[str, events.Event] = {}  # test name -> its verdict event
        self._sent: set[str] = set()
        self._import_told = False
        # The mistakes a test may name: those of the exercise whose suite runs.
        self._known = hints.worded(Path(job["suite"]).parent)

    def emit(self, event: events.Event) -> None:
        self._channel.write(events.line(event))
        self._channel.flush()

    @pytest.fixture
    def student(self, request: pytest.FixtureRequest) -> BoundStudent:
        limits = self._job["limits"]
        seconds = self._job["tests"].get(request.node.originalname, {}).get(
            "seconds", limits["test_seconds"]
        )
        # Every test starts from a fresh import: what one test did to the
        # student's module (a class attribute changed, say) can't leak into the next.
        self._student.stop()
        return BoundStudent(self._student, Budget(self._clock, limits["call_seconds"], seconds))

    @pytest.fixture
    def notes(self) -> list[str]:
        return self._notes

    def _stop_overloaded(self, item: pytest.Function, why: str) -> None:
        """The machine starved this test: no verdict, and no other test runs."""
        self._overloaded = why
        item.session.shouldstop = why

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Function, call: pytest.CallInfo[None]
                                  ) -> Generator[None, Any, None]:
        outcome = yield
        report = outcome.get_result()
        name = item.originalname
        if report.failed and call.excinfo is not None and _starved(call.excinfo):
            self._stop_overloaded(item, str(call.excinfo.value))
            return
        if report.when == "call" or (report.failed and name not in self._results):
            mistakes: list[str]
            status, message, mistakes, internal = "passed", "", [], False
            board = tree = None
            if not report.passed:
                assert call.excinfo is not None  # what made the report fail
                status, message, mistakes, internal = _status(call.excinfo, self._import_told,
                                                                self._known)
                self._import_told |= isinstance(call.excinfo.value, ImportFailed)
                # a Mismatch's position as a grid, for the report page's table
                board = getattr(call.excinfo.value, "board", None)
                tree = getattr(call.excinfo.value, "tree", None)  # and its tree, to draw
            self._results[name] = events.verdict(name, status, message, mistakes, internal,
                                                 int(call.duration * 1000), board, tree)

    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        # Sent before the test runs, so that a run killed at its time limit
        # still tells the host which test was running.
        self.emit(events.start(events.test_name(nodeid)))

    def pytest_runtest_logfinish(self, nodeid: str, location: tuple[str, int | None, str]
                                 ) -> None:
        name = events.test_name(nodeid)
        if name in self._results and name not in self._sent:
            self._sent.add(name)
            self.emit(self._results[name])

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self._spawner:  # no worker starts ahead of a test that will not come
            self._spawner.finish()
        self._student.stop()
        failure = self._student.import_failure
        notes = self._notes + self._student.notes() + ([] if self._clock.kernel
                                                       else [f"{WALL_CLOCK_NOTE}."])
        if self._overloaded:
            self.emit(events.overloaded(self._overloaded))
        self.emit(events.session(describe_import_failure(failure) if failure else None,
                                 self._student.output(), list(dict.fromkeys(notes))))
