"""Shared helpers for the grader's own tests."""

import fcntl
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from grader import exercises, grading, report, solutions
from grader.layouts import AS_ROOT
from grader.sandbox import judges
from grader.sandbox.containers import LABEL, live_owner
from grader.sandbox.local import LocalSandbox, is_boundary

ROOT = Path(__file__).resolve().parent.parent

# A shell that starts the suite in the background (`pytest &`, a job of a
# non-interactive script) starts it with Ctrl-C ignored, and every process it
# starts would ignore it too: the tests that send Ctrl-C to a batch need it
# back. A handler, unlike "ignored", is not passed on to child processes.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
EXERCISES = ROOT / "exercises"  # the built-in exercises' folders
solution = solutions.reference_folder  # an exercise's reference solution, by id
corpus = solutions.corpus_folder  # an exercise's corpus: a folder per case, with its expect.toml


def built_in_case(label):
    """A built-in case by its label: "alphabeta/prune_strict_bound", "solution of helpers"."""
    return next(case for case in solutions.built_in() if case.label == label)


def grade(exercise_id, path, **limits):
    """Grade ``path`` in the local sandbox; the report is schema-checked again."""
    exercise = exercises.load(exercise_id)
    result = grading.grade(exercise, path, LocalSandbox(), exercise.limits.override(**limits))
    return report.validate(result)


@pytest.fixture
def submission(tmp_path):
    """Write a one-file submission from source text: submission(name, text) -> folder."""
    def write(name, text):
        folder = tmp_path / "submission"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        return folder
    return write


@pytest.fixture
def solution_copy(tmp_path):
    """A copy of a reference solution's folder, to change: solution_copy(id) -> folder."""
    def copy(exercise_id):
        target = tmp_path / exercise_id
        shutil.copytree(solution(exercise_id), target)
        return target
    return copy


# The run's findings, gathered where the summary is written: with pytest-xdist
# the tests run in worker processes, and what they find reaches the controller
# only inside their reports (a skip's reason, a test's user_properties).
UNTESTED = {}  # what could not be tested -> why (the first reason given)
HOSTILE_RESULTS = {}  # hostile run id -> the problems found (empty: the grader held)
NOT_TESTED = re.compile(r"Skipped: (.+?) NOT TESTED: (.*)", re.DOTALL)


def skip_loudly(what, why):
    """Skip a test for want of a tool, and say so loudly at the end of the run.

    Under CI (CI=true) the tool must be there: the test fails instead.
    """
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must test {what}: {why}")
    pytest.skip(f"{what.upper()} NOT TESTED: {why}")


def frozen_once_busy(group, seconds=0.3):
    """Freeze ``group`` once its busy tasks have used some CPU, and its count then,
    which must not move while it stays frozen ``seconds``."""
    deadline = time.monotonic() + 60
    while group.cpu_seconds() < 0.05 and time.monotonic() < deadline:
        time.sleep(0.01)
    group.freeze()
    frozen_at = group.cpu_seconds()
    time.sleep(seconds)
    assert group.cpu_seconds() == frozen_at > 0
    return frozen_at


def pytest_runtest_logreport(report):
    if report.skipped and isinstance(report.longrepr, tuple):
        if found := NOT_TESTED.match(report.longrepr[2]):
            UNTESTED.setdefault(found[1].lower(), found[2])
    for name, value in report.user_properties:
        if name == "hostile run":
            run, problems = value
            HOSTILE_RESULTS[run] = problems


@pytest.fixture(scope="session", autouse=True)
def local_sandbox_refusing_root():
    """As root without bubblewrap the local sandbox refuses every run (it would be
    no boundary): each test that grades in it is then skipped loudly, with the
    reason, instead of failing on a report that says so; under CI, failed."""
    if os.geteuid() != 0 or is_boundary():
        yield
        return

    def refuse(*_args, **_kwargs):
        skip_loudly("grading in the local sandbox as root", AS_ROOT)

    # pytest's skip is no Exception: it passes through the grader's own handlers
    # (a run's error report) and out of its threads' futures to the test.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LocalSandbox, "run", refuse)
        yield


@pytest.fixture
def own_judges(monkeypatch):
    """The local sandbox's warm judges of this test alone, started in its temporary
    folder: the test closes them (``close()``) before it looks for what its runs
    left behind, their processes and homes included."""
    pool = judges.Pool()
    monkeypatch.setattr(judges, "POOL", pool)
    yield pool
    pool.close()


@contextmanager
def run_lock(tmp_path_factory, name):
    """Held by one pytest-xdist worker at a time, for work done once for the whole
    run; yields the folder all workers share (the session's own without xdist)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield shared


@pytest.fixture(scope="session")
def graded_locally(tmp_path_factory):
    """graded_locally(case) -> the case's report from the local sandbox, graded once
    for the whole run and shared by every test (and xdist worker) that judges it."""
    def report_of(case):
        name = f"local-report-{case.exercise}-{case.path.name}"
        with run_lock(tmp_path_factory, name) as shared:
            kept = shared / f"{name}.json"
            if not kept.exists():
                kept.write_text(json.dumps(grade(case.exercise, case.path)), encoding="utf-8")
            return json.loads(kept.read_text(encoding="utf-8"))
    return report_of


IMAGE_BUILD = pytest.StashKey[subprocess.Popen]()  # the whole suite's image build


def pytest_sessionstart(session):
    """A run of the whole suite starts building the grading image at once, where
    it is missing or out of date, in the background: the tests that need no
    Docker run meanwhile, and ``docker_client`` waits for it (one build runs at
    a time). A run of a few tests builds it only when one of them needs it."""
    if os.environ.get("PYTEST_XDIST_WORKER") or \
            session.config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    from grader import image

    try:
        if not image.problem(image.connect()):
            return
    except image.NoEngine:
        return  # docker_client says so
    # Its output is not needed: where it fails, docker_client's own try says why.
    session.config.stash[IMAGE_BUILD] = subprocess.Popen(
        [sys.executable, "-m", "grader", "image", "build"], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_sessionfinish(session):
    if build := session.config.stash.get(IMAGE_BUILD, None):
        build.wait()  # a run whose Docker tests were deselected or cut short


@pytest.fixture(scope="session")
def docker_client(tmp_path_factory):
    """A client of a Docker engine with an up-to-date grading image, built once
    for the whole run where it is missing or out of date.

    Skipped loudly where no engine answers, the image can't be built or bubblewrap
    can't make the view of the Docker sandbox's judge; under CI, failed.
    """
    from grader import image

    try:
        client = image.connect()
    except image.NoEngine as exc:
        skip_loudly("the Docker sandbox", str(exc))
    if not is_boundary():
        skip_loudly("the Docker sandbox", "bwrap is not installed or can't make its namespaces "
                    "here (apt-get install bubblewrap): its judge runs in bubblewrap's view")
    with run_lock(tmp_path_factory, "grading-image") as shared:
        failed = shared / "grading-image.failed"  # a worker's failed build: not tried again
        if not failed.exists() and image.problem(client):
            try:
                image.build(client, force=False)  # the run's own, if it is building
            except (image.BuildFailed, image.WheelhouseError) as exc:  # no base, no index
                failed.write_text(f"the grading image can't be built here: {exc}")
        if failed.exists():
            skip_loudly("the Docker sandbox", failed.read_text())
    return client


@pytest.fixture(scope="session")
def chromium():
    """The path of a Chromium for tests/browser.py; skipped loudly without one, under CI failed."""
    import browser

    path = browser.chromium()
    if path is None:
        skip_loudly("the summary page in a browser",
                    "no Chromium on PATH (Debian: apt-get install chromium)")
    return path


@pytest.fixture
def driver(chromium, tmp_path):
    """Chromium driven by selenium (chromedriver on PATH), for the batch's pages under
    axe-core; skipped loudly without chromedriver, under CI failed."""
    import browser

    chromedriver = shutil.which("chromedriver")
    if chromedriver is None:
        skip_loudly("the batch's pages under axe-core", "no chromedriver on PATH "
                    "(Debian: apt-get install chromium-driver)")
    with browser.driven(chromium, chromedriver, tmp_path) as chrome:
        yield chrome


def pytest_terminal_summary(terminalreporter):
    hostile_summary(terminalreporter)
    if UNTESTED:
        bar = "!" * 78
        terminalreporter.write_line(bar, red=True, bold=True)
        for what, why in UNTESTED.items():
            terminalreporter.write_line(f"{what.upper()} WAS NOT TESTED: {why}",
                                        red=True, bold=True)
        terminalreporter.write_line(bar, red=True, bold=True)


def hostile_summary(terminalreporter):
    if not HOSTILE_RESULTS:
        return
    cases = {run.split("@")[0] for run in HOSTILE_RESULTS}
    broken = sorted(run for run, problems in HOSTILE_RESULTS.items() if problems)
    terminalreporter.write_line(
        f"hostile corpus: {len(cases)} cases, {len(HOSTILE_RESULTS)} runs: "
        f"{len(HOSTILE_RESULTS) - len(broken)} held, {len(broken)} broken"
        + (f" ({', '.join(broken)})" if broken else ""), bold=True)


def left_behind(client):
    """The grader's containers that this session left: its own, and those of runs
    that have ended (another live grading run's, a second test session's say,
    are that run's own)."""
    mine = f"{socket.gethostname()}:{os.getpid()}"
    return [c for c in client.containers.list(all=True, filters={"label": LABEL},
                                              ignore_removed=True)
            if c.labels.get(f"{LABEL}.owner") == mine or not live_owner(c)]
