"""How a suite fails a test on the student's answers."""

from grader.contracts.hints import unknown


class Mismatch(AssertionError):
    """A test failed on the student's answers: the message, and the mistakes
    found (ids of ``grader.contracts.hints``; any other is a grader bug)."""

    def __init__(self, message: str, found: tuple[str, ...] | list[str] = ()) -> None:
        super().__init__(message)
        if unknown(list(found)):
            raise ValueError(f"unknown mistakes {unknown(list(found))!r}")
        self.message = message
        self.mistakes = list(found)
