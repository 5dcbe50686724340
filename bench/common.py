"""What the benchmarks share: the submissions they grade and a timer."""

import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the source checkout
sys.path.insert(0, str(ROOT))

from grader import exercises, grading, solutions  # noqa: E402


def submissions(n):
    """N submissions: the reference solutions and the corpus, taken in turn."""
    return list(itertools.islice(itertools.cycle(checkout_cases()), n))


def checkout_cases():
    """The checkout's reference solutions, then its corpus."""
    return solutions.built_in()


def grade_all(cases, sandbox):
    """Grade ``cases`` one at a time: (total seconds, {exercise: [seconds]})."""
    per_exercise = {}
    started = time.perf_counter()
    for case in cases:
        exercise = exercises.load(case.exercise)
        one = time.perf_counter()
        grading.grade(exercise, case.path, sandbox, exercise.limits)
        per_exercise.setdefault(case.exercise, []).append(time.perf_counter() - one)
    return time.perf_counter() - started, per_exercise


def median_seconds(command, times=5):
    """The median wall time of running ``command`` ``times`` times."""
    import subprocess

    samples = []
    for _ in range(times):
        started = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)
