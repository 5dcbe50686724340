"""What a grading costs beside its floor, side by side in one run (issue 29's goals 1 to 3).

    python bench/grading_cost.py [--runs R] [--batch N] [--goal 1 2 3] [--image TAG[@layers] ...]
    python bench/grading_cost.py --local [--runs R] [--goal 1 3]

The floor of a grading is what it can't do without: a fresh container of
the grading image (a bare ``docker run --rm``) and the work of the checks,
taken here as the reference solution answering, in this process, everything
the suite asks of it (every position, every depth, every budget of the clock).

1. one correct ``depth_limit`` file graded in Docker against a bare
   container plus that work, in this process and (the checkout's own image
   only) as a user runs it, ``minimax-grader grade`` from its start to its
   report; graded in the local sandbox against the work;
2. N distinct correct ``helpers`` files graded in Docker as ``batch`` does
   (as many at once as there are cores, containers made ahead of need)
   against N bare containers, as many at once, plus N times the work shared
   by those cores;
3. each game and search exercise's reference solution graded in Docker
   against a bare container plus the reference's own search (as
   ``game_exercises.py`` measures it).

With ``--local``, goals 1 and 3 are graded in the local sandbox only (no
engine needed), each beside the CPU its processes took (the judge's and
the workers', the kernel's count of the run's group) against the CPU of
the work in this process: the CPU moves less than the wall clock with a
busy machine's load.

Each ``--image`` is graded in turn, in the same run, to compare two versions
of the harness; ``TAG@layers`` grades it without its code volumes (its
containers read the image's layers). By default the checkout's image. Times
are medians of R runs; the ratios are the goals' (each at most 1.5; local
2). The machine's load counts: run it on a quiet machine.
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
from dataclasses import dataclass
from pathlib import Path

from docker_vs_local import bare_run
from game_exercises import REFERENCES, _isolation_cases, _load, _seconds

from grader import exercises, grading, image, solutions
from grader.games import isolation
from grader.sandbox.docker import DockerSandbox
from grader.sandbox.local import LocalSandbox

SINGLE = "depth_limit"  # goal 1's exercise
LAYERS = "@layers"  # an --image graded without its code volumes
BATCHED = "helpers"  # goal 2's


def _depth_limit():
    """What the depth_limit suite asks: each position at each depth, for its
    counts and again for its moves."""
    search = _load(SINGLE, "minimax.py").minimax_decision
    for _ in ("counts", "moves"):
        for state, depths in _isolation_cases():
            for depth in depths:
                search(state, depth)


def _helpers():
    """What the helpers suite asks: each function on each position."""
    module = _load(BATCHED, "minimax_helpers.py")
    for name in ("terminal_test", "min_value", "max_value"):
        for state, _ in isolation.positions():
            getattr(module, name)(state)


def _full_marks(exercise, path, box):
    """Grade ``path`` (None: the reference solution); a report short of full marks
    ends the benchmark: its time would be a failure's, not a grading's."""
    path = path or solutions.reference_folder(exercise.id)
    report = grading.grade(exercise, path, box, exercise.limits)
    if report["score"] != report["max_score"]:
        raise SystemExit(f"{exercise.id} in {box.name}: {report['message'][:300]}")
    return report


def _command_line(exercise, tag):
    """Grade the reference with the command line, in a process of its own, as
    a user does (its imports, the engine's connection and the image check
    included); a report short of full marks ends the benchmark."""
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", "--sandbox", "docker", "--format", "json",
         "--exercise", exercise.id, str(solutions.reference_folder(exercise.id))],
        env={**os.environ, "MINIMAX_GRADER_IMAGE": tag}, capture_output=True, text=True,
        check=True)
    report = json.loads(done.stdout)
    if report["score"] != report["max_score"]:
        raise SystemExit(f"{exercise.id} by the command line: {report['message'][:300]}")


@dataclass
class Image:
    label: str  # the tag, with "@layers" where it is graded without its code volumes
    docker: DockerSandbox
    bare: float = 0.0  # seconds of a bare container of it


def _interleaved(images, runs, measure):
    """{tag: median seconds of ``measure(image)``}, the images taken in turn in
    each run, so that a load that comes and goes weighs on each alike."""
    samples = {image.label: [] for image in images}
    for _ in range(runs):
        for image_ in images:
            started = time.perf_counter()
            measure(image_)
            samples[image_.label].append(time.perf_counter() - started)
    return {tag: statistics.median(seconds) for tag, seconds in samples.items()}


def _ratio(label, seconds, floor, parts):
    print(f"  {label}: {seconds:.2f} s against {floor:.2f} s ({parts}): "
          f"{seconds / floor:.2f}x")


def one(images, runs, own):
    """Goal 1: one depth_limit file in Docker, and in the local sandbox;
    ``own``: the images are the checkout's (the command line checks that)."""
    exercise = exercises.load(SINGLE)
    work = _seconds(_depth_limit, runs)
    print(f"goal 1: one {SINGLE} file (the checks' work in process {work:.2f} s)")
    graded = _interleaved(images, runs, lambda i: _full_marks(exercise, None, i.docker))
    for image_ in images:
        _ratio(f"docker {image_.label}", graded[image_.label], image_.bare + work,
               "bare container + work")
    if own:
        served = [i for i in images if i.docker.code_volumes]  # as the command line grades
        by_hand = _interleaved(served, runs, lambda i: _command_line(exercise, i.docker.image))
        for image_ in served:
            _ratio(f"minimax-grader grade, docker {image_.label}", by_hand[image_.label],
                   image_.bare + work, "bare container + work")
    local = _seconds(lambda: _full_marks(exercise, None, LocalSandbox()), runs)
    _ratio("local sandbox", local, work, "work")


def _distinct(root, n):
    """``n`` copies of the helpers reference, no two alike: their folders."""
    source = solutions.reference_folder(BATCHED)
    folders = []
    for number in range(n):
        folder = root / f"s{number:03}"
        folder.mkdir()
        for file in source.glob("*.py"):
            (folder / file.name).write_bytes(file.read_bytes() + f"\n# student {number}\n".encode())
        folders.append(folder)
    return folders


def _bare_containers(tag, n, at_once):
    """Seconds to run ``n`` bare containers, ``at_once`` at a time."""
    started = time.perf_counter()
    with ThreadPoolExecutor(at_once) as pool:
        list(pool.map(lambda _: subprocess.run(bare_run(tag), check=True,
                                               stdout=subprocess.DEVNULL), range(n)))
    return time.perf_counter() - started


def _busy_seconds():
    """CPU seconds this machine has spent busy since it started (/proc/stat: every
    process's, the engine's and the kernel's; idle and I/O wait left out)."""
    with open("/proc/stat") as stat:
        fields = [int(f) for f in stat.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _busy(run):
    """(wall seconds, busy CPU seconds of the machine) of ``run()``."""
    started, busy = time.perf_counter(), _busy_seconds()
    run()
    return time.perf_counter() - started, _busy_seconds() - busy


def many(client, images, n):
    """Goal 2: ``n`` distinct helpers files, as many at once as there are cores;
    with the machine's CPU a file of each, which caps the files a second."""
    cores = os.cpu_count() or 1
    exercise = exercises.load(BATCHED)
    work = _seconds(_helpers, 3)
    print(f"goal 2: {n} distinct {BATCHED} files, {cores} at once")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-bench-") as root:
        folders = _distinct(Path(root), n)
        for image_ in images:
            bare, bare_cpu = _busy(lambda i=image_: _bare_containers(i.docker.image, n, cores))
            floor = bare + n * work / cores
            docker = DockerSandbox(client, image=image_.docker.image, warm=cores,
                                   code_volumes=image_.docker.code_volumes)

            def batch(d=docker):
                with ThreadPoolExecutor(cores) as pool:
                    list(pool.map(lambda f: _full_marks(exercise, f, d), folders))

            seconds, cpu = _busy(batch)
            docker.close()
            _ratio(f"docker {image_.label} ({n / seconds:.2f} a second)", seconds, floor,
                   f"{n} bare containers {cores} at once + the checks' work")
            print(f"    the machine's CPU a file: {cpu / n:.2f} s graded, {bare_cpu / n:.2f} s "
                  f"a bare container (its docker client's included): at most "
                  f"{cores * n / cpu:.1f} and {cores * n / bare_cpu:.1f} a second on {cores} cores")


def games(images, runs):
    """Goal 3: each game and search exercise in Docker."""
    print("goal 3: the game and search exercises")
    for name, reference in REFERENCES.items():
        exercise = exercises.load(name)
        search = _seconds(reference, runs)
        graded = _interleaved(images, runs, lambda i, e=exercise: _full_marks(e, None, i.docker))
        for image_ in images:
            _ratio(f"{name}, docker {image_.label}", graded[image_.label], image_.bare + search,
                   f"bare container + the reference's search {search:.2f} s")


def _graded_cpu(exercise, runs):
    """Medians of grading the reference locally: (wall seconds, CPU seconds of
    the run's processes as its report gives them, the kernel's count)."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        report = _full_marks(exercise, None, LocalSandbox())
        samples.append((time.perf_counter() - started, report["sandbox"]["used"]["cpu_seconds"]))
    return tuple(statistics.median(column) for column in zip(*samples, strict=True))


def _work_cpu(run, runs):
    """Medians of ``run()`` in this process: (wall seconds, CPU seconds)."""
    samples = []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        samples.append((time.perf_counter() - wall, time.process_time() - cpu))
    return tuple(statistics.median(column) for column in zip(*samples, strict=True))


def local(runs, goals):
    """Goals 1 and 3 in the local sandbox, wall and CPU against the work's."""
    print("in the local sandbox, wall and CPU seconds against the work's (in process)")
    cases = {SINGLE: _depth_limit} if 1 in goals else {}
    cases |= REFERENCES if 3 in goals else {}
    for name, reference in cases.items():
        exercise = exercises.load(name)
        work, work_cpu = _work_cpu(reference, runs)
        wall, cpu = _graded_cpu(exercise, runs)
        print(f"  {name}: wall {wall:.2f} s against {work:.2f} s: {wall / work:.2f}x; "
              f"CPU {cpu:.2f} s against {work_cpu:.2f} s: {cpu / work_cpu:.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="gradings of each, for the median")
    parser.add_argument("--batch", type=int, default=40, help="files in goal 2")
    parser.add_argument("--goal", type=int, nargs="+", choices=(1, 2, 3), default=[1, 2, 3])
    parser.add_argument("--image", action="append",
                        help="grading image to measure (repeatable; by default the "
                             f"checkout's); TAG{LAYERS}: graded from its layers, without its "
                             "code volumes")
    parser.add_argument("--local", action="store_true",
                        help="the local sandbox only, with CPU beside wall (goals 1 and 3)")
    args = parser.parse_args()
    if args.local:
        print(f"on {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
              f"medians of {args.runs} runs")
        local(args.runs, args.goal)
        return
    client = image.connect()
    tags = args.image or [image.default_tag()]
    print(f"on {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"medians of {args.runs} runs")
    why = None if args.image else image.problem(client)  # another's image is taken as it is
    if why:
        raise SystemExit(why)
    images = [Image(tag, DockerSandbox(client, image=tag.split("@")[0],
                                       code_volumes=LAYERS not in tag))
              for tag in tags]
    bare = _interleaved(images, max(args.runs, 5), lambda i: subprocess.run(
        bare_run(i.docker.image), check=True, stdout=subprocess.DEVNULL))
    for image_ in images:
        image_.bare = bare[image_.label]
        print(f"a bare container of {image_.label}: {image_.bare:.2f} s")
    if 1 in args.goal:
        one(images, args.runs, own=not args.image)
    if 2 in args.goal:
        many(client, images, args.batch)
    if 3 in args.goal:
        games(images, args.runs)

if __name__ == "__main__":
    main()
