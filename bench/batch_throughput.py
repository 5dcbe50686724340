"""Grade a class (a) one by one with `grade` in a shell loop and (b) with
`batch`, through each sandbox, in one run on this machine.

    python bench/batch_throughput.py [-n 200] [--sandbox local docker] [--distinct]

The class mixes the reference solutions and the test corpus of every
exercise, taken in turn (so some students hand in identical files, as a real
class's untouched stubs do); ``--distinct`` appends a comment per student so
that no two files are alike and nothing is graded once for many. Prints
submissions per second for (a) and (b), their ratio, and the time per
submission of a Docker batch against a bare container start.
"""

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from common import median_seconds, submissions
from docker_vs_local import bare_run

from grader.image import default_tag

CLI = [sys.executable, "-m", "grader"]


def make_classes(n, root, distinct):
    """One class folder per exercise, n students in all: {exercise: folder}."""
    classes = defaultdict(lambda: None)
    for number, case in enumerate(submissions(n)):
        folder = root / case.exercise
        classes[case.exercise] = folder
        student = folder / f"s{number:03}"
        student.mkdir(parents=True)
        for source in case.path.iterdir():
            if source.suffix == ".py":
                data = source.read_bytes()
                if distinct:
                    data += f"\n# student {number}\n".encode()
                (student / source.name).write_bytes(data)
    return dict(classes)


def loop(classes, sandbox, out):
    """(a): a shell loop running `grade` once per student; seconds."""
    lines = []
    for exercise, folder in classes.items():
        grade = shlex.join([*CLI, "grade", "--exercise", exercise, "--sandbox", sandbox,
                            "--format", "json"])
        lines.append(f'for s in {shlex.quote(str(folder))}/*; do {grade} -o '
                     f'{shlex.quote(str(out))}/{exercise}-$(basename "$s").json "$s" '
                     '> /dev/null; done')
    started = time.perf_counter()
    subprocess.run(["bash", "-c", "\n".join(lines)], check=True)
    return time.perf_counter() - started


def batch(classes, sandbox, out):
    """(b): one `batch` per exercise; seconds."""
    started = time.perf_counter()
    for exercise, folder in classes.items():
        subprocess.run([*CLI, "batch", "--exercise", exercise, "--sandbox", sandbox, str(folder),
                        "-o", str(out / exercise)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="students in all")
    parser.add_argument("--sandbox", nargs="+", choices=("local", "docker"),
                        default=["local", "docker"])
    parser.add_argument("--distinct", action="store_true", help="no two files alike")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="minimax-grader-bench-") as root:
        root = Path(root)
        classes = make_classes(args.n, root / "class", args.distinct)
        kind = "distinct" if args.distinct else "mixed (identical files graded once)"
        print(f"{args.n} submissions, {kind}, over {len(classes)} exercises")
        for sandbox in args.sandbox:
            (root / f"loop-{sandbox}").mkdir()
            looped = loop(classes, sandbox, root / f"loop-{sandbox}")
            batched = batch(classes, sandbox, root / f"batch-{sandbox}")
            print(f"  {sandbox}: (a) grade loop {args.n / looped:.2f}/s, "
                  f"(b) batch {args.n / batched:.2f}/s: (b)/(a) = {looped / batched:.2f}x")
            if sandbox == "docker":
                bare = median_seconds(bare_run(default_tag()))
                per = batched / args.n
                print(f"    batch: {per * 1000:.0f} ms per submission; a bare `docker run "
                      f"--rm` takes {bare * 1000:.0f} ms: {per / bare:.2f}x")


if __name__ == "__main__":
    main()
