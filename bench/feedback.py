"""How well the feedback names the corpus's mistakes, per exercise.

    python bench/feedback.py [--jobs J] [--exercise E ...] [--solutions DIR]

Grades every case of the exercises' corpora (and each reference solution) in the
local sandbox and prints, for each exercise: the cases; the verdicts that
are right (full marks or not, as expect.toml says); the known mistakes the
cases hold, how many of them a test names, how many go unnamed; how many
reports end a test with "no mistake the grader knows" (neither a model nor
a fact of the trace said what the code does); and the wrong hints, mistakes
named in a case that does not have them (there must be none). The cases
behind every miss are listed under the table. ``--solutions DIR`` grades the
cases of another folder laid out as ``solutions/`` (DIR/<exercise>/corpus/<case>/
with its expect.toml): real students' files, say, kept outside the repository,
each with the verdict and the mistakes whoever read it found there.
"""

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from common import checkout_cases

from grader import exercises, grading, solutions
from grader.harness.checking.checks import UNKNOWN
from grader.sandbox.local import LocalSandbox
from grader.solutions import Case

COLUMNS = ("exercise", "cases", "verdicts right", "known mistakes", "named", "unnamed",
           "no mistake known", "wrong hints")


def _graded(case: Case) -> tuple[Case, bool, set[str], bool]:
    """(case, whether its verdict is right, the mistakes its report names,
    whether a test of it ends "no mistake the grader knows")."""
    exercise = exercises.load(case.exercise)
    report = grading.grade(exercise, case.path, LocalSandbox(), exercise.limits)
    full = report["status"] == "graded" and report["score"] == report["max_score"]
    named = {m for test in report["tests"] for m in test["mistakes"]}
    return case, full == case.full_marks, named, any(UNKNOWN in test["message"]
                                                     for test in report["tests"])


def measure(cases: list[Case], jobs: int) -> tuple[dict[str, Counter[str]], list[str]]:
    """The table's counts by exercise, and a line for each miss."""
    rows: dict[str, Counter[str]] = {}
    misses = []
    with ProcessPoolExecutor(jobs) as pool:
        for case, verdict, named, unknown in pool.map(_graded, cases):
            row = rows.setdefault(case.exercise, Counter())
            unnamed, wrong = case.mistakes - named, named - case.mistakes
            row.update({"cases": 1, "verdicts right": int(verdict),
                        "known mistakes": len(case.mistakes),
                        "named": len(case.mistakes & named), "unnamed": len(unnamed),
                        "no mistake known": int(unknown), "wrong hints": len(wrong)})
            if not verdict:
                misses.append(f"{case.label}: wrong verdict")
            if unknown:
                misses.append(f"{case.label}: a test ends \"no mistake the grader knows\"")
            if unnamed or wrong:
                misses.append(f"{case.label}: unnamed {sorted(unnamed)}, "
                              f"wrongly named {sorted(wrong)}")
    return rows, misses


def table(rows: dict[str, Counter[str]]) -> str:
    total: Counter[str] = sum(rows.values(), Counter())
    lines = [[name, *(str(row[c]) for c in COLUMNS[1:])]
             for name, row in [*sorted(rows.items()), ("all", total)]]
    widths = [max(len(c), *(len(line[i]) for line in lines)) for i, c in enumerate(COLUMNS)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths, strict=True))) + " |"

    rule = "|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":"
                          for i, w in enumerate(widths)) + "|"
    return "\n".join([line(list(COLUMNS)), rule, *map(line, lines)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--exercise", action="append", help="only these (repeatable)")
    parser.add_argument("--solutions", type=Path,
                        help="grade this solutions-shaped folder's cases, not the checkout's")
    args = parser.parse_args()
    graded = set(exercises.known(kind=exercises.SUITE))  # the agent's is played
    found = solutions.built_in(root=args.solutions) if args.solutions else checkout_cases()
    cases = [c for c in found if c.exercise in graded
             and (not args.exercise or c.exercise in args.exercise)]
    rows, misses = measure(cases, args.jobs)
    print(table(rows))
    print(*misses, sep="\n")


if __name__ == "__main__":
    main()
