"""The pytest plugin that turns a suite run into grading results.

It gives the suites their fixtures (``student``, ``notes``), turns each test's
outcome into a result with a status the report understands, and writes one
JSON line per finished test to the results channel, so that a run killed
half-way still leaves every finished verdict behind.
"""

import time

import pytest

from grader.contracts import events
from grader.harness.runtime.student import (
    ChangedGrader,
    ImportFailed,
    Student,
    StudentFault,
    describe_import_failure,
)
from grader.harness.runtime.verdict import Mismatch


class Budget:
    """The deadline of each call: the per-call limit, within the test's own."""

    def __init__(self, call_seconds, test_seconds):
        self.call_seconds = call_seconds
        self.test_end = time.monotonic() + test_seconds

    def deadline(self):
        return min(time.monotonic() + self.call_seconds, self.test_end)


class BoundStudent:
    """The student's worker as one test sees it: steps carry the test's budget."""

    def __init__(self, student, budget):
        self.student = student
        self.budget = budget

    def run(self, chains):
        return self.student.run(chains, self.budget.deadline)

    def restart(self):
        """A fresh import of the student's files for the next calls."""
        self.student.stop()


IMPORT_FAILED = "not run: your files could not be imported (the report's message says why)"


def _status(excinfo, told_import):
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
    return "error", f"internal grader error: {excinfo.typename}: {exc}", [], True


def _fault_mistakes(exc):
    if isinstance(exc, ImportFailed):
        return ["syntax_error" if exc.failure.get("kind") == "syntax" else "import_crash"]
    return ["changed_grader"] if isinstance(exc, ChangedGrader) else []


class Grading:
    """Registered by the supervisor with the job's settings and results channel."""

    def __init__(self, job, channel, spawner=None):
        self._job = job
        self._channel = channel
        limits = job["limits"]
        self._student = Student(job["submission"], job["modules"], job["provided"],
                                limits["output_bytes"], spawner)
        self._notes = []
        self._results = {}  # test name -> its verdict event
        self._sent = set()
        self._import_told = False

    def emit(self, event):
        self._channel.write(events.line(event))
        self._channel.flush()

    @pytest.fixture
    def student(self, request):
        limits = self._job["limits"]
        seconds = self._job["tests"].get(request.node.originalname, {}).get(
            "seconds", limits["test_seconds"]
        )
        # Every test starts from a fresh import: what one test did to the
        # student's module (a class attribute changed, say) can't leak into the next.
        self._student.stop()
        return BoundStudent(self._student, Budget(limits["call_seconds"], seconds))

    @pytest.fixture
    def notes(self):
        return self._notes

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        name = item.originalname
        if report.when == "call" or (report.failed and name not in self._results):
            status, message, mistakes, internal = "passed", "", [], False
            if not report.passed:
                status, message, mistakes, internal = _status(call.excinfo, self._import_told)
                self._import_told |= isinstance(call.excinfo.value, ImportFailed)
            self._results[name] = events.verdict(name, status, message, mistakes, internal,
                                                 int(call.duration * 1000))

    def pytest_runtest_logstart(self, nodeid, location):
        # Sent before the test runs, so that a run killed at its time limit
        # still tells the host which test was running.
        self.emit(events.start(events.test_name(nodeid)))

    def pytest_runtest_logfinish(self, nodeid, location):
        name = events.test_name(nodeid)
        if name in self._results and name not in self._sent:
            self._sent.add(name)
            self.emit(self._results[name])

    def pytest_sessionfinish(self, session):
        self._student.stop()
        failure = self._student.import_failure
        self.emit(events.session(describe_import_failure(failure) if failure else None,
                                 self._student.output(),
                                 list(dict.fromkeys(self._notes + self._student.notes()))))
