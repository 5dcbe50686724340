"""Is the test suite flaky? Run it whole several times in a row, some of the
runs beside a `batch` that keeps both cores busy, and print each run's outcome.

    python bench/suite_under_load.py [--runs 3] [--loaded 2] [--jobs 2] [-- PYTEST ARGS]

The first ``runs - loaded`` runs are quiet, the others loaded (a Docker batch
over a class mixed from the corpus, started again as each ends: see
time_limits.Load). The runs are made with CI=true, so that nothing is
skipped. Exits 1 when any run failed; a failed run's summary lines are
printed.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

from common import ROOT
from time_limits import Load


def run_suite(pytest_args):
    """(passed, seconds, the summary lines) of one run of the whole suite."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *pytest_args], cwd=ROOT, env={**os.environ, "CI": "true"},
                          capture_output=True, text=True)
    lines = done.stdout.splitlines()
    summary = [line for line in lines if line.startswith(("FAILED", "ERROR"))] + lines[-1:]
    return done.returncode == 0, time.monotonic() - started, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--loaded", type=int, default=2, help="how many of the runs are loaded")
    parser.add_argument("--jobs", type=int, default=2, help="the loading batch's --jobs")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed on to pytest")
    args = parser.parse_args()
    failures = 0
    for number in range(1, args.runs + 1):
        loaded = number > args.runs - args.loaded
        with tempfile.TemporaryDirectory(prefix="suite-load-") as root:
            with Load(Path(root), args.jobs) if loaded else nullcontext() as load:
                passed, seconds, summary = run_suite(args.pytest_args)
                batches = f", beside {load.batches} finished batches" if loaded else ""
        failures += not passed
        print(f"run {number} ({'loaded' if loaded else 'quiet'}): "
              f"{'passed' if passed else 'FAILED'} in {seconds:.0f} s{batches}", flush=True)
        if not passed:
            print("\n".join(f"    {line}" for line in summary), flush=True)
    print(f"{args.runs} runs, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
