"""How a suite fails a test on the student's answers."""

from typing import Any


class Mismatch(AssertionError):
    """A test failed on the student's answers: the message, the mistakes found
    (ids its exercise's hints know, ``grader.contracts.hints.worded``; the
    plugin takes no other: one would be a grader bug), and the position the
    message draws, as a grid, where it is one (``board``, see
    ``grader.harness.checking.boards``), for pages to show as a table and a
    picture; the drawn game tree it shows, as data (``tree``, see
    ``grader.harness.lesson.trees.picture``), for pages to draw."""

    def __init__(self, message: str, found: tuple[str, ...] | list[str] = (),
                 board: dict[str, Any] | None = None,
                 tree: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.mistakes = list(found)
        self.board = board
        self.tree = tree
