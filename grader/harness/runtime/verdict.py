"""How a suite fails a test on the student's answers."""

from typing import Any

from grader.contracts.hints import unknown


class Mismatch(AssertionError):
    """A test failed on the student's answers: the message, the mistakes found
    (ids of ``grader.contracts.hints``; any other is a grader bug), and the
    position the message draws, as a grid, where it is one (``board``, see
    ``grader.harness.judging.boards``), for pages to show as a table."""

    def __init__(self, message: str, found: tuple[str, ...] | list[str] = (),
                 board: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        if unknown(list(found)):
            raise ValueError(f"unknown mistakes {unknown(list(found))!r}")
        self.message = message
        self.mistakes = list(found)
        self.board = board
