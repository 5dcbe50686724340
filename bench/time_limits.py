"""Size each exercise's time limits from the work: its slowest correct
submission, graded in Docker while a batch loads the machine.

    python bench/time_limits.py [--rounds R] [--factor F] [--no-load] [--exercise E ...]

For every exercise it grades each correct case (the reference solution and
the corpus cases whose expect.toml says full_marks = true) R times, one at a
time, while a `batch` (as many jobs as cores) grades the rest of the corpus
through Docker beside it, over and over. It prints, per exercise, the slowest
run (from the call to the report, container start included) and the slowest
single test, and the limits F times those give, rounded up to whole seconds:

- test_seconds: F x the slowest test, at least CALL_FLOOR;
- call_seconds: the same (one call is never longer than its test);
- total_seconds: F x the slowest run, and at least every test's limit in
  turn plus START seconds, so that code that loops in every test still has
  each test judged on its own before the whole run is stopped.

The measured runs get limits far above any of these, so that nothing is cut
short. Last, a submission that never returns is graded in each sandbox with a
total limit of OVERSHOOT_TOTAL seconds, beside the same load: how long after
its limit the report came.
"""

import argparse
import math
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT, checkout_cases, submissions

from grader import exercises, grading, sandbox

CLI = [sys.executable, "-m", "grader"]
ROOM = dict(call_seconds=120, test_seconds=300, total_seconds=600)  # never reached here
CALL_FLOOR = 5  # a call also waits for a worker to start, slower under load
START = 5  # seconds for the sandbox and pytest to start, in the total
OVERSHOOT_TOTAL = 8
LOOPS = "def terminal_test(gameState):\n    while True:\n        pass\n"


class Load:
    """`batch` over a class mixed from the corpus, started again as each ends."""

    def __init__(self, root, jobs):
        self.root, self.jobs = root, jobs
        self.process = None
        self.stopping = threading.Event()
        self.batches = 0
        self.thread = threading.Thread(target=self._run)

    def _classes(self):
        classes = {}
        for number, case in enumerate(submissions(4 * self.jobs * 6)):
            student = self.root / "class" / case.exercise / f"s{number:03}"
            student.mkdir(parents=True)
            classes[case.exercise] = student.parent
            for source in case.path.glob("*.py"):
                # A line of its own per student: nothing is graded once for many.
                student.joinpath(source.name).write_bytes(
                    source.read_bytes() + f"\n# student {number}\n".encode())
        return classes

    def _run(self):
        classes = self._classes()
        while not self.stopping.is_set():
            for exercise, folder in classes.items():
                if self.stopping.is_set():
                    return
                self.process = subprocess.Popen(
                    [*CLI, "batch", "--exercise", exercise, "--sandbox", "docker",
                     "--jobs", str(self.jobs), str(folder), "-o",
                     str(self.root / f"out{self.batches}")],
                    cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                self.process.wait()
                self.batches += 1

    def __enter__(self):
        self.thread.start()
        time.sleep(5)  # the batch's containers are running before the first measure
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        process = self.process
        if process and process.poll() is None:
            for _ in range(2):  # batch's own Ctrl-C: the second one kills its sandboxes
                process.send_signal(signal.SIGINT)
                time.sleep(0.5)
            process.wait()
        self.thread.join()


def measure(docker, cases, rounds):
    """{exercise: [(case label, run seconds, slowest test seconds, full marks)]}"""
    found = {}
    for _ in range(rounds):
        for case in cases:
            exercise = exercises.load(case.exercise)
            started = time.perf_counter()
            report = grading.grade(exercise, case.path, docker, exercise.limits.override(**ROOM))
            seconds = time.perf_counter() - started
            slowest = max(t["duration_ms"] for t in report["tests"]) / 1000
            found.setdefault(case.exercise, []).append(
                (case.label, seconds, slowest, report["score"] == report["max_score"]))
    return found


def overshoot(backends, folder):
    """{backend: seconds past the total limit until the report} for an endless loop."""
    folder.mkdir()
    (folder / "minimax_helpers.py").write_text(LOOPS)
    exercise = exercises.load("helpers")
    limits = exercise.limits.override(call_seconds=120, test_seconds=120,
                                      total_seconds=OVERSHOOT_TOTAL)
    found = {}
    for backend in backends:
        started = time.perf_counter()
        grading.grade(exercise, folder, backend, limits)
        found[backend.name] = time.perf_counter() - started - OVERSHOOT_TOTAL
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="gradings of each correct case")
    parser.add_argument("--factor", type=float, default=10, help="limit / slowest measured")
    parser.add_argument("--no-load", action="store_true", help="measure on an idle machine")
    parser.add_argument("--exercise", action="append", help="these exercises only (repeatable)")
    args = parser.parse_args()
    docker = sandbox.backend("docker")
    if isinstance(docker, sandbox.Unavailable):
        raise SystemExit(f"no Docker sandbox here: {docker.why}")
    cases = [case for case in checkout_cases() if case.full_marks
             and (not args.exercise or case.exercise in args.exercise)]
    jobs = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="minimax-grader-bench-") as root:
        backends = [docker, sandbox.backend("local")]
        if args.no_load:
            found = measure(docker, cases, args.rounds)
            late = overshoot(backends, Path(root) / "loops")
            beside = "on an idle machine"
        else:
            with Load(Path(root), jobs) as load:
                found = measure(docker, cases, args.rounds)
                late = overshoot(backends, Path(root) / "loops")
            beside = f"beside a Docker batch of {jobs} jobs ({load.batches} batches ran)"
    sandbox.close(docker)
    print(f"{len(cases)} correct cases graded {args.rounds} times each in Docker, {beside}, "
          f"on {jobs} cores; limits at {args.factor:g}x the slowest:")
    print(f"  {'exercise':<12} {'runs':>4} {'slowest run':>12} {'slowest test':>13}   "
          "call / test / total seconds")
    for name, runs in sorted(found.items()):
        label, run, _, _ = max(runs, key=lambda r: r[1])
        test = max(r[2] for r in runs)
        short = sum(not r[3] for r in runs)
        test_limit = call_limit = max(CALL_FLOOR, math.ceil(args.factor * test))
        tests = len(exercises.load(name).tests)
        total_limit = max(math.ceil(args.factor * run), tests * test_limit + START)
        print(f"  {name:<12} {len(runs):>4} {run:>11.2f}s {test:>12.2f}s   "
              f"{call_limit} / {test_limit} / {total_limit}   (slowest: {label}"
              + (f"; {short} runs without full marks" if short else "") + ")")
    print(f"an endless loop with a total limit of {OVERSHOOT_TOTAL} s, beside the same load: "
          + ", ".join(f"{name} reported {late:.2f} s after its limit"
                      for name, late in late.items()))


if __name__ == "__main__":
    main()
