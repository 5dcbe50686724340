"""Comparing a student's answers with the reference, and saying how they differ.

A check walks the positions smallest first, collects every difference, and
fails with the smallest one drawn as a board, expected against actual, and
the name of the known mistake that explains the differences, if any.
"""

from dataclasses import dataclass, field

from grader.harness import isolation, mistakes
from grader.harness.student import Raised
from grader.harness.wire import Foreign, describe


class Mismatch(AssertionError):
    """A test failed on the student's answers: the message and the mistake found."""

    def __init__(self, message, mistake=None):
        super().__init__(message)
        if mistake and mistake not in mistakes.HINTS:
            raise ValueError(f"unknown mistake {mistake!r}")
        self.message = message
        self.mistakes = [mistake] if mistake else []


@dataclass
class Difference:
    state: object
    path: tuple
    expected: str
    actual: object  # the student's decoded answer, or the Raised fault
    extra: dict = field(default_factory=dict)


def is_move(value):
    """A move is a plain tuple of two plain ints (nothing that merely claims it)."""
    return type(value) is tuple and len(value) == 2 and all(type(c) is int for c in value)


def where(path):
    if not path:
        return "the start of the game"
    return "after the moves " + ", ".join(f"({x}, {y})" for x, y in path)


def collect(positions, ask, agrees, expected_text, label=None):
    """The differences between the student's answers and the reference.

    ``ask(state, path)`` returns the student's answer (a ``Raised`` fault is
    recorded as the answer); ``agrees(state, answer)`` judges it. ``label``
    is shown with each difference (the depth searched, say).
    """
    differences = []
    for state, path in positions:
        try:
            answer = ask(state, path)
        except Raised as fault:
            answer = fault
        if isinstance(answer, Raised) or not agrees(state, answer):
            differences.append(
                Difference(state, path, expected_text(state), answer, dict(label or {})))
    return differences


def fail(what, differences, total, mistake=None, advice=None, shown=describe):
    """Raise a Mismatch that shows the smallest difference.

    ``shown`` turns the student's answer into text (a raised error is shown
    as it is).
    """
    first = differences[0]
    got = str(first.actual) if isinstance(first.actual, Raised) else shown(first.actual)
    lines = [
        f"{what} is wrong on {len(differences)} of {total} positions. The smallest one, "
        f"reached from {where(first.path)}:",
        "",
        isolation.draw(first.state),
        "",
        f"expected: {first.expected}",
        f"got:      {got}",
    ]
    lines += [f"{key}: {value}" for key, value in first.extra.items()]
    if advice:
        lines += ["", advice]
    raise Mismatch("\n".join(lines), mistake)


def all_none(differences):
    return all(d.actual is None for d in differences)


def returned_a_stub(differences):
    """The untouched starter returns None on every position it is asked about."""
    return "stub" if differences and all_none(differences) else None


def foreign(value):
    return isinstance(value, Foreign)
