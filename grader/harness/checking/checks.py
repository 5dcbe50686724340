"""Comparing a student's answers with the reference, and saying how they differ.

A check asks the student about every position, smallest first, and keeps
each answer as an :class:`Observation`. If any is wrong, the test fails with
the smallest wrong one drawn as a board, expected against actual, and the
known mistakes whose models explain the answers, if any.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeGuard

from grader.contracts.protocol import describe
from grader.games import Path, State, isolation
from grader.harness.checking.boards import grid
from grader.harness.checking.facts import Finder, told
from grader.harness.checking.observation import Observation as Observation  # re-exported
from grader.harness.runtime.faults import NotAState, Raised, StudentFault
from grader.harness.runtime.verdict import Mismatch


def is_move(value: object) -> TypeGuard[tuple[int, int]]:
    """A move is a plain tuple of two plain ints (nothing that merely claims it)."""
    return type(value) is tuple and len(value) == 2 and all(type(c) is int for c in value)


def move_like(value: object) -> bool:
    """Whether a decision's answer is of a kind its models can give: a move,
    None (no move found) or a number (a score returned instead)."""
    return is_move(value) or value is None or type(value) in (int, float)


def not_a_move(function: str, value: object) -> str:
    """What is wrong with an answer that is not ``move_like`` (a list [x, y], a dict)."""
    return f"{function} returned {describe(value, 100)} where a move (x, y) tuple is due"


def raised(observation: Observation) -> bool:
    """Whether the student's code failed instead of answering: it raised, was
    stopped (too many counted calls), or a call on what an earlier call
    returned found no such method."""
    return isinstance(observation.answer, (StudentFault, NotAState))


def where(path: Path) -> str:
    if not path:
        return "the start of the game"
    return "after the moves " + ", ".join(f"({x}, {y})" for x, y in path)


def collect(positions: Iterable[tuple[State, Path]], ask: Callable[[State, Path], Any],
            agrees: Callable[[State, Any], bool], expected_text: Callable[[State], str],
            label: dict[str, Any] | None = None) -> list[Observation]:
    """The student's answer on every position, judged.

    ``ask(state, path)`` returns the answer (a ``Raised`` fault is kept as the
    answer, and is wrong); ``agrees(state, answer)`` judges it.
    """
    observations: list[Observation] = []
    for state, path in positions:
        try:
            answer = ask(state, path)
        except (Raised, NotAState) as fault:
            answer = fault
        ok = not isinstance(answer, (Raised, NotAState)) and agrees(state, answer)
        observation = Observation(state, path, answer, ok, dict(label or {}))
        if not ok:
            observation.expected = expected_text(state)
        observations.append(observation)
    return observations


class ObservedRun(list[Observation]):
    """The observations of one run of the student's code, made once and judged
    by more than one test, with how to find the facts of a failing case
    (``facts``: it asks the case again, its calls traced)."""

    def __init__(self, observations: Iterable[Observation], facts: Finder | None = None
                 ) -> None:
        super().__init__(observations)
        self.facts = facts


def facts_of(observations: Sequence[Observation]) -> Finder | None:
    """The fact finder of a run's observations, if they are an ``ObservedRun``."""
    return observations.facts if isinstance(observations, ObservedRun) else None


def wrong(observations: Iterable[Observation]) -> list[Observation]:
    return [o for o in observations if not o.ok]


def returned_a_stub(observations: Sequence[Observation]) -> list[str]:
    """The untouched starter answers None everywhere."""
    return ["stub"] if observations and all(o.answer is None for o in observations) else []


# What a diagnosis names: mistake ids, or (ids, a sentence saying what the code does).
Diagnosis = list[str] | tuple[list[str], str]

def each(names: Iterable[str], check: Callable[[str], None]) -> None:
    """``check(name)`` for every name; fail with all their failures, each
    judged and each mistake named, when more than one is wrong."""
    failures = []
    for name in names:
        try:
            check(name)
        except Mismatch as failure:
            failures.append(failure)
    if failures:
        raise Mismatch("\n\n".join(f.message for f in failures),
                       list(dict.fromkeys(m for f in failures for m in f.mistakes)),
                       board=failures[0].board,  # the first one's, drawn first
                       tree=next((f.tree for f in failures if f.tree), None))


UNKNOWN = ("No mistake the grader knows gives these answers: compare yours with the "
           "expected ones on the position above.")


def verdict(what: str, observations: list[Observation],
            diagnose: Callable[[list[Observation]], Diagnosis] | None = None,
            shown: Callable[[Any], str] = describe,
            detail: Callable[[Observation], list[str]] | None = None,
            draw: Callable[[State], str] = isolation.draw,
            place: Callable[[Path], str] = where, cases: str | None = None,
            facts: Finder | None = None,
            board: Callable[[State, str], dict[str, Any] | None] | None = None) -> None:
    """Fail with the smallest wrong answer, if any.

    ``diagnose(observations)`` names the mistakes whose models reproduce the
    answers: a list of ids, or (ids, a sentence saying what the code does).
    Where none does, ``facts(observations)`` says what the code was seen to
    do, and names the hints that follow (``grader.harness.checking.facts``).
    ``shown`` turns an answer into text; ``detail(observation)`` adds lines
    about the smallest wrong one; ``draw`` draws its position, ``place`` says
    how it is reached (the game's own ways); ``cases`` names what was asked
    ("positions" by default); ``board(state, drawing)`` gives the position as
    data where its drawing is no grid (Nim's piles; ``boards.piles``).
    """
    bad = wrong(observations)
    if not bad:
        return
    # A model that reproduces the answers comes first: an unfinished function
    # also answers None, and on one position "None everywhere" says little.
    found = (diagnose(observations) if diagnose else []) or returned_a_stub(observations)
    found, said = found if isinstance(found, tuple) else (found, "")
    if not found and facts:
        seen = facts(observations)
        found, said = told(seen) if seen else (found, said)
    first = bad[0]
    got = str(first.answer) if raised(first) else shown(first.answer)
    cases = cases or ("cases (position and depth)" if first.extra else "positions")
    drawing = draw(first.state)
    more = detail(first) if detail else []
    lines = [
        f"{what} is wrong on {len(bad)} of {len(observations)} {cases}. The smallest one, "
        f"reached from {place(first.path)}:",
        "",
        drawing,
        "",
        *[f"{key}: {value}" for key, value in first.extra.items()],
        f"expected: {first.expected}",
        f"got:      {got}",
        *more,
    ]
    if said:
        lines += ["", said]
    elif not found and not raised(first):
        lines += ["", UNKNOWN]
    # The text keeps the drawing (the text report, the CLI); a page shows the
    # board as a table in its place.
    raise Mismatch("\n".join(lines), found,
                   board=board(first.state, drawing) if board else grid(drawing),
                   tree=getattr(more, "picture", None))  # a drawn tree's data (trees.Shown)
