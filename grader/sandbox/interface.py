"""What a sandbox is to its callers: the ``Sandbox`` protocol every backend
keeps, and the stand-in for one that can't run here (``Unavailable``)."""

import threading
from typing import NoReturn, Protocol

from grader.contracts.run import Run
from grader.exercises import Exercise, Limits
from grader.intake import Submission
from grader.sandbox.outcome import SandboxUnavailable


class Sandbox(Protocol):
    """Where a submission's suite runs: each backend is one."""

    name: str

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> Run:
        """Run the exercise's suite on the submission; Cancelled when ``cancel`` is set."""


class Unavailable:
    """Stands in for a backend that can't run here: every run is a grader error."""

    def __init__(self, name: str, why: str) -> None:
        self.name = name
        self.why = why

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> NoReturn:
        raise SandboxUnavailable(self.why)
