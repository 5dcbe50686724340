"""Grade N submissions through the local sandbox; print time per submission
and throughput, beside the cost of a bare interpreter start in the same run.

    python bench/local_throughput.py [-n N]
"""

import argparse
import statistics
import sys

from common import grade_all, median_seconds, submissions

from grader.sandbox.local import LocalSandbox


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=24, help="submissions to grade")
    args = parser.parse_args()
    cases = submissions(args.n)
    total, per_exercise = grade_all(cases, LocalSandbox())
    floor = median_seconds([sys.executable, "-I", "-c", "pass"])
    print(f"graded {len(cases)} submissions in {total:.2f} s (local sandbox, one at a time)")
    print(f"  per submission: {total / len(cases) * 1000:.0f} ms; "
          f"throughput: {len(cases) / total:.2f} submissions/s")
    for name, times in sorted(per_exercise.items()):
        print(f"  {name:<12} median {statistics.median(times) * 1000:.0f} ms over {len(times)}")
    print(f"  bare interpreter start: {floor * 1000:.0f} ms; "
          f"grading / bare start: {total / len(cases) / floor:.1f}x")


if __name__ == "__main__":
    main()
