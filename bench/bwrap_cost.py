"""What bubblewrap adds to local grading: one grading and a small batch, through
the bare local sandbox and through bubblewrap, side by side in one run.

    python bench/bwrap_cost.py [-n N] [--jobs J] [--times T] [--batches B]

The two sides are taken in turn, by one process. The bare local sandbox
refuses root, so as root that process runs as an ordinary user
(tests/unprivileged.py), and bubblewrap as root (a uid of each run's own, one
more bwrap) is measured after it.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import ROOT, submissions

from grader import exercises, grading, solutions
from grader.sandbox import bubblewrap, slots
from grader.sandbox.local import LocalSandbox, is_boundary

sys.path.insert(0, str(ROOT / "tests"))
import unprivileged  # noqa: E402

ONE = solutions.reference_folder("helpers")


def one_grading(sandbox):
    """Seconds to grade the helpers reference once."""
    exercise = exercises.load("helpers")
    started = time.perf_counter()
    report = grading.grade(exercise, ONE, sandbox, exercise.limits)
    assert report["status"] == "graded", report["message"]
    return time.perf_counter() - started


def batch(sandbox, n, jobs):
    """Seconds to grade ``n`` submissions, ``jobs`` at once (as ``batch`` does)."""
    known = set(exercises.known())
    cases = [case for case in submissions(4 * n) if case.exercise in known][:n]

    def grade(case):
        exercise = exercises.load(case.exercise)
        return grading.grade(exercise, case.path, sandbox, exercise.limits)

    started = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool:
        reports = list(pool.map(grade, cases))
    assert all(r["status"] == "graded" for r in reports), [r["message"] for r in reports]
    return time.perf_counter() - started


def measure(modes, args):
    """{mode: [one grading's seconds...], [batch's seconds...]}, the modes taken in
    turn so that a change of load falls on all; warmed first (bytecode, caches)."""
    sandboxes = {mode: LocalSandbox(bubblewrap=mode != "bare") for mode in modes}
    figures = {mode: ([], []) for mode in modes}
    for sandbox in sandboxes.values():
        one_grading(sandbox)
    for _ in range(args.times):
        for mode, sandbox in sandboxes.items():
            figures[mode][0].append(one_grading(sandbox))
    for _ in range(args.batches):
        for mode, sandbox in sandboxes.items():
            figures[mode][1].append(batch(sandbox, args.n, args.jobs))
    return figures


def start_costs(times=21):
    """Median ms to run ``true``: bare, in a supervisor's view, and in the
    workers' view inside it (as a supervisor starts its run's zygote, once)."""
    with slots.held_uid() as uid, tempfile.TemporaryDirectory() as temp:
        for name in ("submission", "provided"):
            Path(temp, name).mkdir()
        if uid is not None:
            os.chown(temp, uid, uid)  # as the local sandbox does: the run's folder is the run's
        worker = [*bubblewrap.worker_prefix(f"{temp}/submission", f"{temp}/provided"), "true"]
        def viewed(argv):
            return bubblewrap.supervisor_command(Path(temp), uid, argv)

        commands = {"bare": ["true"], "supervisor's view": viewed(["true"]),
                    "and the workers' in it": viewed(worker)}
        costs = {}
        for name, command in commands.items():
            samples = []
            for _ in range(times):
                started = time.perf_counter()
                subprocess.run(command, check=True)
                samples.append(time.perf_counter() - started)
            costs[name] = statistics.median(samples) * 1000
    return costs


def as_ordinary_user(args):
    """``measure`` of the bare and the bwrap side, by a child process as ``nobody``."""
    argv = [sys.executable, __file__, "--child", "-n", str(args.n), "--jobs", str(args.jobs),
            "--times", str(args.times), "--batches", str(args.batches)]
    with unprivileged.own_folder() as own:
        env = {**os.environ, "TMPDIR": str(own), "HOME": str(own)}
        done = subprocess.run(unprivileged.command(argv), capture_output=True, text=True,
                              env=env, cwd=own, check=False)
    if done.returncode:
        sys.exit(f"the ordinary user's side failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=12, help="submissions in the batch")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at once")
    parser.add_argument("--times", type=int, default=7, help="single gradings per side")
    parser.add_argument("--batches", type=int, default=2, help="batches per side")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return print(json.dumps(measure(["bare", "bwrap"], args)))
    if not is_boundary():
        sys.exit("bwrap is not installed or can't make its namespaces here")
    root = os.geteuid() == 0
    figures = as_ordinary_user(args) if root else measure(["bare", "bwrap"], args)
    if root:
        figures["bwrap as root"] = measure(["bwrap"], args)["bwrap"]
    who = "an ordinary user (nobody)" if root else "this user"
    print(f"helpers reference graded once, median of {args.times}; a batch of {args.n} "
          f"submissions, {args.jobs} at once, median of {args.batches}; bare and bwrap taken "
          f"in turn as {who}" + (", then bwrap as root" if root else ""))
    costs = start_costs()
    print("starting and ending `true`, median of 21: " +
          ", ".join(f"{name} {ms:.1f} ms" for name, ms in costs.items()))
    print(f"{'':<14}{'one grading':>14}{'ratio':>8}{'batch':>12}{'ratio':>8}")
    one_bare, batch_bare = (statistics.median(f) for f in figures["bare"])
    for name, (ones, batches) in figures.items():
        one, whole = statistics.median(ones), statistics.median(batches)
        print(f"{name:<14}{one * 1000:>11.0f} ms{one / one_bare:>7.2f}x"
              f"{whole:>10.2f} s{whole / batch_bare:>7.2f}x")


if __name__ == "__main__":
    main()
