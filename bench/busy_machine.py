"""A grading's time, quiet and on a busy machine, side by side.

    python bench/busy_machine.py [--runs 2] [--sandbox local|docker] [CASE ...]

Each case (a label of check-solutions: "solution of helpers",
"helpers/flipped_utilities"; by default a few of the exercises with the
tightest limits) is graded ``runs`` times on a quiet machine, then as often
beside twelve busy processes a core (each in a session of its own), in turns.
Printed for each: its verdict both ways (they must be the same), and the
median CPU, own (wall less the wait for a CPU) and wall seconds of the run as
its control group told them, with the loaded/quiet ratio of each. The own
time is what the limits are measured on: its ratio stays near 1 while the
wall clock's grows with the load.
"""

import argparse
import statistics
import sys

from common import ROOT

sys.path.insert(0, str(ROOT / "tests"))

from busy import busy  # noqa: E402

from grader import exercises, grading, solutions  # noqa: E402

CASES = ["solution of helpers", "helpers/flipped_utilities", "solution of depth_limit",
         "solution of tic_tac_toe_alphabeta"]
CLOCKS = ("cpu_seconds", "own_seconds", "wall_seconds")


def grade(label, sandbox):
    case = next(case for case in solutions.built_in() if case.label == label)
    exercise = exercises.load(case.exercise)
    report = grading.grade(exercise, case.path, sandbox, exercise.limits)
    verdict = (report["status"], report["score"], tuple(sorted(
        t["name"] for t in report["tests"] if t["status"] != "passed")))
    return verdict, report["sandbox"].get("used", {})


def medians(samples):
    return {clock: statistics.median(s[clock] for s in samples) for clock in CLOCKS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--sandbox", choices=("local", "docker"), default="local")
    parser.add_argument("cases", nargs="*", default=CASES)
    args = parser.parse_args()
    with grading.sandbox_for(args.sandbox) as sandbox:
        print(f"{'case':40} {'verdict':9} " + " ".join(
            f"{clock[:-8]:>5} q/l/ratio    " for clock in CLOCKS))
        for label in args.cases:
            quiet = [grade(label, sandbox) for _ in range(args.runs)]
            with busy():
                loaded = [grade(label, sandbox) for _ in range(args.runs)]
            same = {verdict for verdict, _ in quiet} == {verdict for verdict, _ in loaded}
            q, lo = medians([u for _, u in quiet]), medians([u for _, u in loaded])
            print(f"{label:40} {'same' if same else 'CHANGED':9} " + " ".join(
                f"{q[c]:5.2f}/{lo[c]:6.2f}/{lo[c] / q[c]:5.2f}x" for c in CLOCKS), flush=True)


if __name__ == "__main__":
    main()
