"""Grade N submissions through the local sandbox; print CPU time per exercise.

The median CPU time of the sandbox's processes (the supervisor and every
worker), beside the wall time: on a machine with few cores, CPU is what
bounds a batch.

    python bench/local_cpu.py [-n N]
"""

import argparse
import resource
import statistics
import time

from common import submissions

from grader import exercises, grading
from grader.sandbox.local import LocalSandbox


def children_cpu():
    """CPU seconds of the reaped child processes so far (with their own children)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=24, help="submissions to grade")
    args = parser.parse_args()
    samples = {}
    for case in submissions(args.n):
        exercise = exercises.load(case.exercise)
        cpu, wall = children_cpu(), time.perf_counter()
        grading.grade(exercise, case.path, LocalSandbox(), exercise.limits)
        samples.setdefault(case.exercise, []).append(
            (children_cpu() - cpu, time.perf_counter() - wall))
    print(f"graded {args.n} submissions (local sandbox, one at a time); medians per exercise:")
    for name, runs in sorted(samples.items()):
        cpu, wall = (statistics.median(column) * 1000 for column in zip(*runs, strict=True))
        print(f"  {name:<12} cpu {cpu:5.0f} ms  wall {wall:5.0f} ms  over {len(runs)}")


if __name__ == "__main__":
    main()
