"""Proving the grader on known submissions: the reference solutions and a corpus.

Every reference solution must get full marks; every case of a corpus must
get what its
``expect.toml`` says: full marks, or lost marks with the named mistake
diagnosed and, where listed, exactly those tests failing. No test may name
a mistake the case does not have: a wrong hint is worse than none.

Both live in the exercise's folder (``solution/`` and ``corpus/<case>/``), in
the source checkout only: neither ships with the package, so that students
who install the grader don't get the answers. An instructor can also point
``check-solutions`` at folders of their own, ``SOLUTIONS/<id>/`` and
``CORPUS/<id>/<case>/``.
"""

import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from grader import catalog, exercises, grading
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


def references(solutions: Path) -> list[Case]:
    """The reference solutions in ``solutions/<id>/`` (an exercise's graded by play
    as the agent's is: ``check`` plays it)."""
    return [Case(folder.name, folder, True, reference=True)
            for folder in sorted(solutions.iterdir()) if folder.is_dir()]


def by_play() -> list[Case]:
    """The reference solutions of the exercises graded by play (the agent's): each
    must win full points against the baselines of its match.toml."""
    return [Case(exercise.id, exercise.solution, True, reference=True)
            for exercise in catalog.played().values() if exercise.solution.is_dir()]


def corpus_cases(corpus: Path) -> list[Case]:
    """The cases in ``corpus/<id>/<case>/``."""
    found: list[Case] = []
    for exercise in sorted(p for p in corpus.iterdir() if p.is_dir()):
        found += _corpus_cases(exercise.name, exercise)
    return found


def built_in(corpus: bool = True, root: Path | None = None) -> list[Case]:
    """The reference solutions, then (unless not ``corpus``) the corpus cases, that
    the exercises graded by a suite hold in their folders (of ``root`` alone where
    given): none of the built-in ones in an installed wheel, an added folder's own."""
    graded = ([root / name for name in exercises.known(root)] if root is not None
              else list(exercises.folders().values()))
    found = [Case(folder.name, folder / "solution", True, reference=True)
             for folder in graded if (folder / "solution").is_dir()]
    if corpus:
        for folder in graded:
            found += _corpus_cases(folder.name, folder / "corpus")
    return found


def judge(case: Case, report: Report) -> list[str]:
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
    if case.failing is not None and failing != sorted(case.failing):
        problems.append(f"expected failing {sorted(case.failing)}, got {failing}")
    for note in case.notes:
        if not any(note in n for n in report["notes"]):
            problems.append(f"expected a note saying {note!r}")
    return problems


def check(case: Case, sandbox: Sandbox) -> tuple[Report, list[str]]:
    """Grade ``case`` and judge it: (report, problems)."""
    exercise = catalog.load(case.exercise)
    report = grading.grade(exercise, case.path, sandbox, exercise.limits)
    return report, judge(case, report)


def check_all(cases: list[Case], sandbox: Sandbox,
              jobs: int) -> Iterator[tuple[Case, Report, list[str]]]:
    """Grade and judge every case, ``jobs`` at a time: (case, report, problems)
    in the order of ``cases``.

    The cases of the exercises with the longest run limit start first, so that
    a slow game exercise does not end the check alone on one core."""
    longest_first = sorted(cases, key=lambda case: -catalog.load(case.exercise)
                           .limits.total_seconds)
    with ThreadPoolExecutor(jobs) as pool:
        started = {id(case): pool.submit(check, case, sandbox) for case in longest_first}
        for case in cases:
            yield case, *started[id(case)].result()
