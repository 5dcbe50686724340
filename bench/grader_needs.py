"""What the grader itself needs to grade a correct submission: the floors
below which grader/exercises.py refuses limits.

    python bench/grader_needs.py [--sandbox docker|local|both] [--rounds R] [--load]

For every exercise and sandbox it grades the reference solution R times at
each rung of two ladders, going down until a rung loses marks in some round:

- memory_mb (MEMORY_LADDER): the smallest limit that still gives full marks;
- call_seconds = test_seconds (SECONDS_LADDER): the smallest that still gives
  full marks, which is a worker's start (every test imports the student's
  files afresh, in its first call) with the slowest call of a correct
  submission;
- total_seconds (TOTAL_LADDER): likewise, a whole run of a correct submission
  as the total's clock sees it (in Docker it starts once the container has).

At generous limits it also prints a worker's start, at most (the shortest
test: a fresh worker and its calls), and a run's start (the run's time less
its tests': the sandbox, pytest and the collection of the suite). With
--load, all of it is measured beside a Docker batch (as in time_limits.py).
"""

import argparse
import contextlib
import dataclasses
import os
import tempfile
from pathlib import Path

import common  # noqa: F401  (puts the checkout on sys.path)
from time_limits import Load

from grader import exercises, grading, sandbox, solutions

MEMORY_LADDER = (512, 256, 192, 160, 128, 112, 96, 80, 64, 56, 48, 40, 32, 24, 16)
SECONDS_LADDER = (4, 2, 1, 0.5, 0.25, 0.12, 0.06, 0.03)
TOTAL_LADDER = (8, 6, 4, 3, 2, 1.5, 1, 0.75, 0.5, 0.25)
ROOM = dict(call_seconds=60, test_seconds=60, total_seconds=120, memory_mb=512)


class Unfloored(exercises.Limits):
    """Limits without the grader's floors: this bench measures them."""

    FLOORS = {}


def grade(exercise, backend, **limits):
    """The report of the reference solution under ``limits`` (the times and
    memory not given: generous)."""
    unfloored = Unfloored(**dataclasses.asdict(exercise.limits))
    return grading.grade(exercise, solutions.reference_folder(exercise.id), backend,
                         unfloored.override(**{**ROOM, **limits}))


def full(report):
    return report["score"] == report["max_score"]


def lowest(exercise, backend, rounds, ladder, limits_at):
    """(the lowest rung with full marks in every round, the report of the first
    that lost them or None)."""
    passed = None
    for rung in ladder:
        for _ in range(rounds):
            report = grade(exercise, backend, **limits_at(rung))
            if not full(report):
                return passed, report
        passed = rung
    return passed, None


def starts(exercise, backend, rounds):
    """(a worker's start at most, a run's start) in seconds, the most of ``rounds``."""
    worker = run = 0.0
    for _ in range(rounds):
        report = grade(exercise, backend)
        tests = [t["duration_ms"] for t in report["tests"]]
        worker = max(worker, min(tests) / 1000)
        run = max(run, (report["duration_ms"] - sum(tests)) / 1000)
    return worker, run


def need(passed, below, ladder, unit):
    """The need as a ladder found it: ``<=`` when its last rung still passed."""
    if passed is None:
        return f">{ladder[0]:g} {unit}"
    return f"{'<=' if below is None else ''}{passed:g} {unit}"


def lost(report):
    """How a rung lost its marks, in a line."""
    if report is None:
        return "none lost"
    return f"{report['status']}: {report['message'].splitlines()[0][:110]}"


def measure(backend, rounds):
    """Print the needs of every exercise in ``backend``."""
    print(f"{backend.name}:")
    print(f"  {'exercise':<12} {'memory':>8} {'call':>8} {'total':>8} {'worker start':>13} "
          f"{'run start':>10}   the first rung below")
    for exercise in (e for e in exercises.load_all() if not e.by_play):  # a suite's needs
        memory, below_memory = lowest(exercise, backend, rounds, MEMORY_LADDER,
                                      lambda mb: {"memory_mb": mb})
        seconds, below_seconds = lowest(
            exercise, backend, rounds, SECONDS_LADDER,
            lambda s: {"call_seconds": s, "test_seconds": s})
        total, below_total = lowest(exercise, backend, rounds, TOTAL_LADDER,
                                    lambda s: {"total_seconds": s})
        worker, run = starts(exercise, backend, rounds)
        print(f"  {exercise.id:<12} {need(memory, below_memory, MEMORY_LADDER, 'MB'):>8} "
              f"{need(seconds, below_seconds, SECONDS_LADDER, 's'):>8} "
              f"{need(total, below_total, TOTAL_LADDER, 's'):>8} {worker:>11.2f} s "
              f"{run:>8.2f} s   memory: {lost(below_memory)}")
        print(f"  {'':<69}   seconds: {lost(below_seconds)}")
        print(f"  {'':<69}   total: {lost(below_total)}")


def backends(name):
    chosen = []
    if name in ("docker", "both"):
        docker = sandbox.backend("docker")
        if isinstance(docker, sandbox.Unavailable):
            raise SystemExit(f"no Docker sandbox here: {docker.why}")
        chosen.append(docker)
    if name in ("local", "both"):
        chosen.append(sandbox.backend("local"))
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbox", choices=("docker", "local", "both"), default="both")
    parser.add_argument("--rounds", type=int, default=2, help="gradings at each rung")
    parser.add_argument("--load", action="store_true", help="beside a Docker batch")
    args = parser.parse_args()
    chosen = backends(args.sandbox)
    jobs = os.cpu_count() or 1
    print(f"the reference solutions, {args.rounds} gradings at each rung, on {jobs} cores, "
          + (f"beside a Docker batch of {jobs} jobs" if args.load else "on an idle machine"))
    with tempfile.TemporaryDirectory(prefix="minimax-grader-bench-") as root:
        with Load(Path(root), jobs) if args.load else contextlib.nullcontext():
            for backend in chosen:
                measure(backend, args.rounds)
    for backend in chosen:
        sandbox.close(backend)


if __name__ == "__main__":
    main()
