"""Grade N submissions through the local sandbox; print time per submission
and throughput, beside the cost of a bare interpreter start in the same run.

    python bench/local_throughput.py [-n N]

The submissions are the reference solutions and the test corpus, taken in
turn until N are graded.
"""

import argparse
import itertools
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grader import exercises, grading, solutions  # noqa: E402
from grader.sandbox.local import LocalSandbox  # noqa: E402


def bare_start(times=5):
    """Seconds for `python -c pass`, the floor of any subprocess sandbox."""
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-c", "pass"], check=True)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=24, help="submissions to grade")
    args = parser.parse_args()
    cases = list(itertools.islice(itertools.cycle(solutions.cases()), args.n))
    sandbox = LocalSandbox()
    per_exercise = {}
    started = time.perf_counter()
    for case in cases:
        exercise = exercises.load(case.exercise)
        one = time.perf_counter()
        grading.grade(exercise, case.path, sandbox, exercise.limits)
        per_exercise.setdefault(case.exercise, []).append(time.perf_counter() - one)
    total = time.perf_counter() - started
    floor = bare_start()
    print(f"graded {len(cases)} submissions in {total:.2f} s (local sandbox, one at a time)")
    print(f"  per submission: {total / len(cases) * 1000:.0f} ms; "
          f"throughput: {len(cases) / total:.2f} submissions/s")
    for name, times in sorted(per_exercise.items()):
        print(f"  {name:<12} median {statistics.median(times) * 1000:.0f} ms over {len(times)}")
    print(f"  bare interpreter start: {floor * 1000:.0f} ms; "
          f"grading / bare start: {total / len(cases) / floor:.1f}x")


if __name__ == "__main__":
    main()
