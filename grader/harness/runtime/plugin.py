"""The pytest plugin that turns a suite run into grading results.

It gives the suites their fixtures (``student``, ``notes``), turns each test's
outcome into a result with a status the report understands, and writes one
JSON line per finished test to the results channel, so that a run killed
half-way still leaves every finished verdict behind.
"""

import time
from collections.abc import Generator
from typing import Any, TextIO

import pytest

from grader.contracts import events
from grader.contracts.job import Job
from grader.harness.runtime.spawn import BrokerSpawner, LocalSpawner
from grader.harness.runtime.student import (
    ChangedGrader,
    ImportFailed,
    Reply,
    Step,
    Student,
    StudentFault,
    describe_import_failure,
)
from grader.harness.runtime.verdict import Mismatch


class Budget:
    """The deadline of each call: the per-call limit, within the test's own."""

    def __init__(self, call_seconds: float, test_seconds: float) -> None:
        self.call_seconds = call_seconds
        self.test_end = time.monotonic() + test_seconds

    def deadline(self) -> float:
        return min(time.monotonic() + self.call_seconds, self.test_end)


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


IMPORT_FAILED = "not run: your files could not be imported (the report's message says why)"
# A fault in the grader's own check of one test: that test alone is left unjudged.
NOT_CHECKED = "could not be checked: the grader failed in its own check of this test"


def _status(excinfo: pytest.ExceptionInfo[BaseException], told_import: bool
            ) -> tuple[str, str, list[str], bool]:
    """(status, message, mistakes, internal) of a test that did not pass."""
    exc = excinfo.value
    if isinstance(exc, Mismatch):
        return "failed", exc.message, exc.mistakes, False
    if isinstance(exc, ImportFailed) and told_import:
        return "error", IMPORT_FAILED, [], False  # told once, in the first test
    if isinstance(exc, StudentFault):
        return exc.status, str(exc), _fault_mistakes(exc), False
    if excinfo.typename == "Failed" and str(exc).lstrip().startswith("Timeout"):
        return "timeout", "the test's time limit was reached", [], False
    return "error", (f"{NOT_CHECKED} ({excinfo.typename}: {exc}); not a mistake of "
                     "yours: your instructor is told, to grade it again"), [], True


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
        self._student = Student(job["submission"], job["modules"], job["provided"],
                                limits["output_bytes"], spawner, job["game"],
                                job["provides"])
        self._notes: list[str] = []
        self._results: dict[str, events.Event] = {}  # test name -> its verdict event
        self._sent: set[str] = set()
        self._import_told = False

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
        return BoundStudent(self._student, Budget(limits["call_seconds"], seconds))

    @pytest.fixture
    def notes(self) -> list[str]:
        return self._notes

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Function, call: pytest.CallInfo[None]
                                  ) -> Generator[None, Any, None]:
        outcome = yield
        report = outcome.get_result()
        name = item.originalname
        if report.when == "call" or (report.failed and name not in self._results):
            mistakes: list[str]
            status, message, mistakes, internal = "passed", "", [], False
            board = None
            if not report.passed:
                assert call.excinfo is not None  # what made the report fail
                status, message, mistakes, internal = _status(call.excinfo, self._import_told)
                self._import_told |= isinstance(call.excinfo.value, ImportFailed)
                # a Mismatch's position as a grid, for the report page's table
                board = getattr(call.excinfo.value, "board", None)
            self._results[name] = events.verdict(name, status, message, mistakes, internal,
                                                 int(call.duration * 1000), board)

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
        self.emit(events.session(describe_import_failure(failure) if failure else None,
                                 self._student.output(),
                                 list(dict.fromkeys(self._notes + self._student.notes()))))
