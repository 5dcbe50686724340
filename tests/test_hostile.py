"""The hostile corpus: submissions that try to fool or harm the grader.

Each case in ``tests/hostile/<case>/`` holds a submission and ``case.toml``
(the exercise, what the case tries, where it is safe to run, the expected
outcome and the plain words the report must use); a submission that git can't
hold (a FIFO, a sparse file, a flood of files) is named by ``build`` instead
and made for each run. For every run this checks that the report is valid and
fair, that the run ended in time, that nothing was left behind, that no secret
reached the report and, in Docker, for a case marked ``neighbour``, that a
correct submission graded at the same time was not affected. The mark is on
every attack that spends what containers share or reaches past its own
processes (CPU, memory, disk, processes and descriptors, output, the network,
signals, files, the clock); an attack that only shapes its own answers or
its own worker (lies, forged events, pytest's internals, shadowed modules,
exits) can reach no other container, and the marked cases show that none
does.

Every case runs once through each box that takes untrusted code: Docker,
bubblewrap, and, for the cases marked ``local``, the bare local sandbox (as an
ordinary user: it refuses root). All three have the one judge on the host;
the runs differ in the box. As root, the bubblewrap box runs as an ordinary
user (``@bwrap-as-user``), as the service's units run it: the judge as root,
in a slot's uid, is the one every Docker run has. A case the intake must
reject never reaches a sandbox: it runs where its ``case.toml`` says only (as
root through Docker's, and as an ordinary user through the local one).
"""

import json
import os
import resource
import shutil
import socket
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import unprivileged
from conftest import EXERCISES, ROOT, skip_loudly, solution

from grader import exercises, grading, report
from grader.sandbox.containers import LABEL
from grader.sandbox.docker import DockerSandbox
from grader.sandbox.local import LocalSandbox, is_boundary

HOSTILE = ROOT / "tests" / "hostile"
MARGIN = 20  # seconds a run may take beyond its own limit, on a machine not overloaded
MEMORY_GROWTH = 256 << 10  # KiB the grader itself may grow by in one run
# Source the student's code must never be able to show in a report.
SECRET_SOURCES = [
    *sorted(EXERCISES.glob("*/suite/*.py")), *sorted(EXERCISES.glob("*/solution/*.py")),
    *[ROOT / "grader" / "harness" / path for path in (
        "lesson/search.py", "checking/checks.py", "lesson/decision_checks.py",
        "lesson/game_checks.py")],
    *[ROOT / "grader" / "games" / "isolation" / f"{name}.py"
      for name in ("suite_positions", "flawed_rules")],
]


@dataclass
class Case:
    name: str
    folder: Path
    exercise: str
    about: str
    sandboxes: list
    expect: str
    says: list = field(default_factory=list)
    limits: dict = field(default_factory=dict)
    build: str = ""  # a key of BUILDERS: the submission is made for each run
    neighbour: bool = False  # in Docker, grade a correct submission beside it

    @property
    def submission(self):
        archive = self.folder / "submission.zip"
        return archive if archive.exists() else self.folder / "submission"


def load_cases():
    cases = []
    for folder in sorted(p for p in HOSTILE.iterdir() if (p / "case.toml").is_file()):
        with open(folder / "case.toml", "rb") as handle:
            cases.append(Case(folder.name, folder, **tomllib.load(handle)))
    return cases


def build_fifo(exercise, into):
    """A folder whose exercise file is a FIFO: opening it to read waits for a writer."""
    os.mkfifo(into / exercise.files[0])
    return into


def build_sparse(exercise, into):
    """The exercise file itself, 1.5 GB of holes: no disk used, never to be read."""
    path = into / exercise.files[0]
    with open(path, "wb") as handle:
        handle.truncate(1_500_000_000)
    return path


def build_flood(exercise, into):
    """The starter file beside 20,000 empty files (the unit test has 100,000)."""
    shutil.copy(exercise.starter / exercise.files[0], into)
    for number in range(20_000):
        (into / f"junk{number:06}").touch()
    return into


BUILDERS = {"fifo": build_fifo, "sparse": build_sparse, "flood": build_flood}
CASES = load_cases()
AS_ROOT = os.geteuid() == 0
BWRAP = ("bwrap-as-user",) if AS_ROOT else ("bwrap",)  # once per box
# A rejected case's runs differ only in who takes the files in (root or an
# ordinary user), never in the sandbox: the intake refuses them first.
RUNS = [(case, where) for case in CASES
        for where in (case.sandboxes if case.expect == "rejected" else (*case.sandboxes, *BWRAP))]
# Graded by a child process as an ordinary user: the tests run as root.
AS_USER = {"bwrap-as-user", "local"} if AS_ROOT else set()


def secret_lines(submission):
    """Distinctive lines of the grader's private sources, less the student's own."""
    own = set()
    if submission.is_dir():
        for path in submission.iterdir():
            if path.is_file() and not path.is_symlink():
                own.update(line.strip() for line in path.read_text(errors="replace").splitlines())
    lines = set()
    for path in SECRET_SOURCES:
        lines.update(line.strip() for line in path.read_text().splitlines()
                     if len(line.strip()) >= 30)
    return lines - own


def strings(value):
    """Every string in a report."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def wall_bound(limits):
    """Seconds of wall time a run may take. Its limit is on its own time, which
    leaves out the waits for a CPU the machine gave to others: on a machine with
    more runnable tasks than cores the limit stretches by that ratio (a run that
    escaped its clock still runs on to the wall clock's backstop, 20 times its limit)."""
    busy = max(1.0, max(os.getloadavg()[:2]) / (os.cpu_count() or 1))
    return limits.total_seconds * busy + MARGIN


def judge(case, result, elapsed, limits):
    """What went wrong in one run (an empty list: the grader held)."""
    problems = []
    if result["status"] != "graded":
        problems.append(f"status {result['status']}: {result['message']}")
    full = result["score"] == result["max_score"]
    if case.expect == "lost" and full:
        problems.append("full marks for a hostile submission")
    if case.expect == "full" and not full:
        problems.append(f"{result['score']}/{result['max_score']} for a correct submission")
    if case.expect == "rejected" and not result["submission"].get("rejected"):
        problems.append("the submission was not rejected")
    for word in case.says:
        if word.lower() not in result["message"].lower():
            problems.append(f"the message does not say {word!r}: {result['message']}")
    if elapsed > wall_bound(limits):
        problems.append(f"took {elapsed:.0f} s, over the limit of {limits.total_seconds:g} s "
                        f"(at a load of {os.getloadavg()[0]:.1f})")
    return problems


def leaks(result, canary, secrets):
    found = []
    for text in strings(result):
        if canary in text:
            found.append("a host environment variable reached the report")
        found += [f"private source reached the report: {line[:60]!r}"
                  for line in secrets if line in text]
    return found[:5]


def neighbour_check(neighbour):
    if neighbour["score"] != neighbour["max_score"] or neighbour["output"]["bytes"]:
        return [f"the correct neighbour was affected: {neighbour['message']}"]
    return []


@pytest.fixture
def sandboxes(request):
    def get(where):
        if where.startswith("bwrap") and not is_boundary():
            skip_loudly("the bubblewrap sandbox", "bwrap is not installed or can't make "
                        "its namespaces here (apt-get install bubblewrap)")
        if where in AS_USER:
            return None  # graded by a child process
        if where == "local":
            return LocalSandbox(bubblewrap=False)
        if where == "bwrap":
            return LocalSandbox()
        return DockerSandbox(request.getfixturevalue("docker_client"))
    return get


@pytest.fixture
def user_temp():
    with unprivileged.own_folder() as own:
        yield own


def test_the_corpus_covers_enough():
    assert len(CASES) >= 30
    assert all(case.sandboxes and set(case.sandboxes) <= {"docker", "local"} for case in CASES)
    assert all(case.expect in ("lost", "full", "rejected") for case in CASES)
    assert all("docker" in case.sandboxes for case in CASES)
    # A rejected case never starts a container to have a neighbour.
    neighboured = [case for case in CASES if case.neighbour]
    assert len(neighboured) >= 20 and all(case.expect != "rejected" for case in neighboured)


@pytest.mark.parametrize("case, where", RUNS, ids=[f"{c.name}@{w}" for c, w in RUNS])
def test_hostile(case, where, sandboxes, monkeypatch, tmp_path, tmp_path_factory,
                 record_property, request, own_judges):
    exercise = exercises.load(case.exercise)
    sandbox = sandboxes(where)
    as_user = where in AS_USER
    # The ordinary user's own folders, where it is one (root's tmp_path is closed to it).
    own = request.getfixturevalue("user_temp") if as_user else None
    work = unprivileged.folder(own, "work") if own else tmp_path
    into = unprivileged.folder(own, "submission") if own else tmp_path_factory.mktemp(case.name)
    submission = (BUILDERS[case.build](exercise, into)
                  if case.build else case.submission)  # outside work, checked for leftovers
    limits = exercise.limits.override(**case.limits)
    canary = f"canary-{os.urandom(8).hex()}"
    monkeypatch.setenv("MINIMAX_GRADER_CANARY", canary)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this run's work folders
    memory_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:
        if as_user:
            hostile = pool.submit(unprivileged.grade, case.exercise, submission, work,
                                  case.limits, bubblewrap=where != "local",
                                  timeout=2 * wall_bound(limits))
        else:
            hostile = pool.submit(grading.grade, exercise, submission, sandbox, limits)
        neighbour = None
        # A correct submission graded at the same time, where the hostile one runs
        # in a container and could spend or reach what containers share.
        if where == "docker" and case.neighbour:
            neighbour = pool.submit(grading.grade, exercise, solution(case.exercise),
                                    sandbox, exercise.limits)
        result = report.validate(hostile.result())
        elapsed = time.monotonic() - started
    problems = judge(case, result, elapsed, limits)
    problems += leaks(result, canary, secret_lines(submission))
    if neighbour:
        problems += neighbour_check(report.validate(neighbour.result()))
    if where == "docker":
        mine = f"{LABEL}.owner={socket.gethostname()}:{os.getpid()}"
        left = sandbox.client.containers.list(all=True, filters={"label": mine},
                                              ignore_removed=True)
        problems += [f"container left behind: {c.name}" for c in left]
    own_judges.close()  # the warm judge of a bubblewrap run: its home lies in tmp_path
    problems += [f"temporary folder left behind: {p.name}" for p in work.iterdir()]
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - memory_before
    if growth > MEMORY_GROWTH and not as_user:
        problems.append(f"the grader itself grew by {growth >> 10} MiB")
    record_property("hostile run", (f"{case.name}@{where}", problems))
    assert problems == [], json.dumps(result["message"])
