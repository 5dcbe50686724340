"""What the student's code did, read from what the grader saw it do.

Where no model of a known mistake gives the student's answers, a report
would otherwise end "no mistake the grader knows". Yet the grader has seen
the code at work: its answers on every position, and the calls the grader's
stand-ins tallied while it ran. A fact is one thing the code was seen to do
there (a cell offered that a move closed; a child searched after the value
had reached the bound), said with the position it was seen on. A fact is
stated only where it was observed, never inferred from a likely cause, and
names the hint that follows from it (ids of ``hints.toml``, as a model's).
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from grader.harness.checking.observation import Observation
from grader.harness.runtime.faults import OutOfTurn, Raised

MOST = 4  # facts a report states for one test: the first ones found, the smallest first
CASES = 3  # wrong cases whose facts are looked for until one names a hint


@dataclass(frozen=True)
class Fact:
    # The id of the hint that follows from it; None where what was seen can
    # come of more than one mistake (the fact is said, with no hint).
    hint: str | None
    says: str  # what the code did, in the student's terms, with where it was seen


# A fact finder: the facts it observed in a failing test's answers.
Finder = Callable[[list[Observation]], Sequence[Fact]]


def told(facts: Sequence[Fact]) -> tuple[list[str], str]:
    """The hints of ``facts``, each once, and the report's lines saying them."""
    facts = list(dict.fromkeys(facts))[:MOST]
    lines = [f"- {fact.says}" for fact in facts]
    return list(dict.fromkeys(f.hint for f in facts if f.hint)), "\n".join(
        ["What your code does:", *lines])


def first_hinted(cases: Iterable[Any], seen: Callable[[Any], "Fact | None"]) -> list[Fact]:
    """The fact ``seen(case)`` of the first of ``cases`` that shows one with a
    hint; else of the first that shows one at all; else none."""
    found: list[Fact] = []
    for case in cases:
        fact = seen(case)
        if fact is not None and fact.hint:
            return [fact]
        found += [fact] if fact is not None and not found else []
    return found


def crashed(got: object) -> str | None:
    """What a student's call that raised did, as the crash ("raised
    AttributeError (...)"), or None where it did not raise. A crash is said as
    the crash, never as a value or a search mistake (a refused call to a
    stand-in, ``OutOfTurn``, is the report's own story)."""
    if not isinstance(got, Raised) or isinstance(got, OutOfTurn):
        return None
    return f"raised {got.raised['type']} ({got.raised['message']})"


CRASH = "; fix that error first: until the code gets past it, what it does next can't be seen"


def times(count: int, what: str) -> str:
    """``count`` ``what``s, in words: "1 position", "3 positions"."""
    return f"{count:,} {what}" + ("" if count == 1 else "s")
