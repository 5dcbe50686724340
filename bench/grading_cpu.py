"""The CPU one grading costs, for the exercises whose gradings cost most.

    python bench/grading_cpu.py [--runs R] [EXERCISE ...]

Grades, one at a time through the local sandbox, each exercise's reference
and a few of its corpus's wrong files (``FILES``; by default the three
exercises whose gradings cost most: the corpus is graded once per test run,
and a student waits as long), and prints each file's CPU seconds, the median
of R runs: the run's control group's count, judge and workers
(``sandbox.used.cpu_seconds``), which moves less with the machine's load
than the wall clock. Its score is printed beside, to show the verdict is
the same. To compare two versions of the grader, run this file in each
checkout, one after the other (it grades the checkout it lies in).
"""

import argparse
import statistics

from common import ROOT

from grader import exercises, grading
from grader.sandbox.local import LocalSandbox

# The costliest exercises, each with wrong files of its corpus that fail
# different tests (their diagnoses replay different mistake models).
FILES = {
    "tic_tac_toe": ["best_move_first_child", "is_end_called_twice", "search_cut_short"],
    "tic_tac_toe_alphabeta": ["prune_on_strict", "no_pruning"],
    "nim_negamax": ["rating_not_negated", "cheat_fake_score_calls"],
}


def graded(exercise_id: str, name: str, runs: int) -> tuple[float, str]:
    """The median CPU seconds of grading ``name`` (the reference: "solution"), and its score."""
    exercise = exercises.load(exercise_id)
    folder = ROOT / "solutions" / exercise_id
    path = folder / "solution" if name == "solution" else folder / "corpus" / name
    seconds, score = [], ""
    for _ in range(runs):
        report = grading.grade(exercise, path, LocalSandbox(), exercise.limits)
        seconds.append(report["sandbox"]["used"]["cpu_seconds"])
        score = f"{report['score']:g}/{report['max_score']:g}"
    return statistics.median(seconds), score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("exercises", nargs="*", default=list(FILES),
                        help="among: " + ", ".join(FILES))
    args = parser.parse_args()
    print(f"CPU seconds per grading, local sandbox, median of {args.runs}:")
    for exercise_id in args.exercises:
        for name in ["solution", *FILES[exercise_id]]:
            cpu, score = graded(exercise_id, name, args.runs)
            print(f"  {exercise_id:<22} {name:<24} {cpu:6.2f} s  score {score}", flush=True)


if __name__ == "__main__":
    main()
