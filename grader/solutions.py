"""Proving the grader on known submissions: the reference solutions and a corpus.

Every reference solution must get full marks; every case of a corpus must
get what its ``expect.toml`` says: full marks, or lost marks with the named
mistake diagnosed and, where listed, exactly those tests failing. No test may
name a mistake the case does not have: a wrong hint is worse than none.

Both live in a solutions folder, ``<id>/solution/`` and ``<id>/corpus/<case>/``
for each exercise: the checkout's ``solutions/`` (``places.SOLUTIONS``), which
never ships with the package, so that students who install the grader don't
get the answers, or an instructor's own folder of the same shape.
"""

import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from grader import exercises, grading
from grader.contracts import places
from grader.report import Report
from grader.sandbox import Sandbox


@dataclass
class Case:
    exercise: str
    path: Path
    full_marks: bool
    mistake: str | None = None
    failing: list[str] | None = None
    notes: list[str] = field(default_factory=list)
    also: list[str] = field(default_factory=list)  # more mistakes the case has (two-mistake cases)
    reference: bool = False  # a reference solution, not a corpus case

    @property
    def mistakes(self) -> set[str]:
        """Every mistake the case has: each must be named, and nothing else."""
        return {m for m in (self.mistake, *self.also) if m is not None}

    @property
    def label(self) -> str:
        if self.reference:
            return f"solution of {self.exercise}"
        return f"{self.exercise}/{self.path.name}"


def _corpus_case(exercise: str, folder: Path) -> Case:
    with open(folder / "expect.toml", "rb") as handle:
        expect = tomllib.load(handle)
    named = expect.get("mistakes", [])
    return Case(exercise, folder, expect["full_marks"], expect.get("mistake") or
                (named[0] if named else None), expect.get("failing"), expect.get("notes", []),
                named[1:])


def _corpus_cases(exercise: str, corpus: Path) -> list[Case]:
    """The cases of ``exercise`` in ``corpus``: its folders with an expect.toml."""
    if not corpus.is_dir():
        return []
    return [_corpus_case(exercise, folder)
            for folder in sorted(p for p in corpus.iterdir() if (p / "expect.toml").is_file())]


class BadSolutions(ValueError):
    """A solutions folder the check can't use: missing, or naming no exercise."""


def reference_folder(exercise: str, root: Path = places.SOLUTIONS) -> Path:
    """The folder of ``exercise``'s reference solution in the solutions folder ``root``."""
    return root / exercise / "solution"


def corpus_folder(exercise: str, root: Path = places.SOLUTIONS) -> Path:
    """The folder of ``exercise``'s corpus in ``root``: a folder a case, each with its
    expect.toml."""
    return root / exercise / "corpus"


def _exercises_in(root: Path) -> list[str]:
    """The exercises ``root`` holds solutions of; BadSolutions where it is no such
    folder, or one of its folders names no exercise."""
    if not root.is_dir():
        raise BadSolutions(f"{root}: no such folder")
    named = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(
        (".", "__")))
    known = exercises.known()
    unknown = [name for name in named if name not in known]
    if unknown:
        raise BadSolutions(f"{root}: {', '.join(unknown)} name(s) no exercise; the exercises "
                           f"are: {', '.join(known)}")
    return named


def built_in(corpus: bool = True, root: Path = places.SOLUTIONS) -> list[Case]:
    """The reference solutions, then (unless not ``corpus``) the corpus cases, of the
    exercises graded by a suite, from the solutions folder ``root``."""
    suites = exercises.known(kind=exercises.SUITE)
    graded = [name for name in _exercises_in(root) if name in suites]
    found = [Case(name, reference_folder(name, root), True, reference=True)
             for name in graded if reference_folder(name, root).is_dir()]
    if corpus:
        for name in graded:
            found += _corpus_cases(name, corpus_folder(name, root))
    return found


def by_play(root: Path = places.SOLUTIONS) -> list[Case]:
    """The reference solutions of the exercises graded by play (the agent's): each
    must win full points against the baselines of its match.toml."""
    played = exercises.known(kind=exercises.PLAY)
    return [Case(name, reference_folder(name, root), True, reference=True)
            for name in _exercises_in(root)
            if name in played and reference_folder(name, root).is_dir()]


def problems_of(case: Case, report: Report) -> list[str]:
    """What is wrong with ``report`` for ``case`` (an empty list: as expected)."""
    if report["status"] != "graded":
        return [f"not graded: {report['message']}"]
    problems: list[str] = []
    full = report["score"] == report["max_score"]
    if case.full_marks and not full:
        failed = [t["name"] for t in report["tests"] if t["status"] != "passed"]
        problems.append(f"expected full marks, got {report['score']:g}/"
                        f"{report['max_score']:g} (failed: {', '.join(failed)})")
    if not case.full_marks and full:
        problems.append("expected lost marks, got full marks")
    found = {m for t in report["tests"] for m in t["mistakes"]}
    for mistake in sorted(case.mistakes - found):
        problems.append(f"expected the mistake {mistake}, "
                        f"diagnosed: {', '.join(sorted(found)) or 'none'}")
    if found - case.mistakes:
        problems.append(f"named mistakes the case does not have: "
                        f"{', '.join(sorted(found - case.mistakes))}")
    failing = sorted(t["name"] for t in report["tests"] if t["status"] != "passed")
    tests = [t["name"] for t in report["tests"]]
    unknown = sorted(set(case.failing or ()) - set(tests))
    if unknown:
        problems.append(f"expect.toml's failing names {', '.join(unknown)}, which the suite "
                        f"does not have (its tests: {', '.join(tests)})")
    if case.failing is not None and failing != sorted(case.failing):
        problems.append(f"expected failing {sorted(case.failing)}, got {failing}")
    for note in case.notes:
        if not any(note in n for n in report["notes"]):
            problems.append(f"expected a note saying {note!r}")
    return problems


def check(case: Case, sandbox: Sandbox) -> tuple[Report, list[str]]:
    """Grade ``case`` and check its report against what it expects: (report, problems)."""
    exercise = exercises.load(case.exercise)
    report = grading.grade(exercise, case.path, sandbox, exercise.limits)  # retried if starved
    return report, problems_of(case, report)


def check_all(cases: list[Case], sandbox: Sandbox,
              jobs: int) -> Iterator[tuple[Case, Report, list[str]]]:
    """Grade and check every case, ``jobs`` at a time: (case, report, problems)
    in the order of ``cases``.

    The cases of the exercises with the longest run limit start first, so that
    a slow game exercise does not end the check alone on one core."""
    longest_first = sorted(cases, key=lambda case: -exercises.load(case.exercise)
                           .limits.total_seconds)
    with ThreadPoolExecutor(jobs) as pool:
        started = {id(case): pool.submit(check, case, sandbox) for case in longest_first}
        for case in cases:
            yield case, *started[id(case)].result()
