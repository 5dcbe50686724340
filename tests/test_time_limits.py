"""The whole run's time limit: a submission that never returns gets its report
in time, in both sandboxes, and the report names the test that was running.

Each run gets a small total limit and per-call and per-test limits far above
it, so that only the total limit can stop it. The limit is of the run's own
time (its CPU, or the wall time it spent, less its wait for a CPU): the report
must say it used the limit, and come before the wall clock's backstop plus
SLACK seconds (container start and removal included), however busy the machine.
"""

import os
import socket
import tempfile
import time

import pytest
from busy import busy
from conftest import solution

from grader import exercises, grading, report
from grader.contracts import owntime
from grader.layouts import LAYOUTS
from grader.sandbox import Run
from grader.sandbox.containers import LABEL
from grader.sandbox.docker import DockerSandbox
from grader.sandbox.local import LocalSandbox

WRAPPED = LAYOUTS["bubblewrap"]  # the layout of the runs these reports stand for

TOTAL = 8
SLACK = 10
RUNNING_AT_THE_LIMIT = ("the whole run's limit of {:g} s (of its own time: CPU, or time it spent, "
                        "not time it waited for the machine) was reached while this test was "
                        "running")
ONLY_THE_TOTAL = dict(total_seconds=TOTAL, call_seconds=120, test_seconds=120)
HELPERS = (solution("helpers") / "minimax_helpers.py").read_text()
EXERCISE = exercises.load("helpers")
ORDER = [t.name for t in EXERCISE.tests]
# test_terminal_test runs first and passes; min_value is first called by the second test.
RUNNING = "test_min_value_empty_board"

NEVER_RETURNS = {
    "sleeps": "    import time\n    time.sleep(10 ** 6)\n",
    "loops": "    while True:\n        pass\n",
    "walks_the_disk": (
        "    import os\n"
        "    while True:\n"
        "        for root, dirs, files in os.walk('/'):\n"
        "            for name in files:\n"
        "                try:\n"
        "                    os.stat(os.path.join(root, name))\n"
        "                except OSError:\n"
        "                    pass\n"),
}


def never_returning(folder, body):
    """The reference helpers, with ``body`` at the top of min_value."""
    text = HELPERS.replace("def min_value(gameState):\n", "def min_value(gameState):\n" + body, 1)
    assert text != HELPERS
    folder.mkdir()
    (folder / "minimax_helpers.py").write_text(text)
    return folder


def processes_under(folder):
    """Live processes whose command line names ``folder`` (the run's workers)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if str(folder).encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


@pytest.fixture(params=["local", "docker"])
def sandbox(request):
    if request.param == "local":
        return LocalSandbox()
    return DockerSandbox(request.getfixturevalue("docker_client"))


@pytest.mark.parametrize("what", sorted(NEVER_RETURNS))
def test_a_run_that_never_returns_is_reported_in_time(what, sandbox, tmp_path, monkeypatch,
                                                      own_judges):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the local run's work folder
    folder = never_returning(tmp_path / "submission", NEVER_RETURNS[what])
    started = time.monotonic()
    result = report.validate(grading.grade(EXERCISE, folder, sandbox,
                                           EXERCISE.limits.override(**ONLY_THE_TOTAL)))
    elapsed = time.monotonic() - started
    assert elapsed <= owntime.backstop(TOTAL) + SLACK, f"the report took {elapsed:.1f} s"
    assert result["status"] == "graded" and result["sandbox"]["timed_out"], result["message"]
    used = result["sandbox"]["used"]
    assert max(used["cpu_seconds"], used["own_seconds"]) >= TOTAL, used
    assert f"stopped at its time limit of {TOTAL} s" in result["message"]
    tests = {t["name"]: t for t in result["tests"]}
    assert tests["test_terminal_test"]["status"] == "passed"
    assert tests[RUNNING]["status"] == "timeout"
    assert tests[RUNNING]["message"] == RUNNING_AT_THE_LIMIT.format(TOTAL)
    for name in ORDER[ORDER.index(RUNNING) + 1:]:
        assert tests[name]["message"] == (
            "not run: the run's time limit was reached before this test")
    assert result["score"] == tests["test_terminal_test"]["max_score"]
    if sandbox.name == "local":
        own_judges.close()  # the warm judge too, whose home lies in tmp_path
        assert processes_under(tmp_path) == [], "a process of the run outlived it"
    else:
        mine = f"{LABEL}.owner={socket.gethostname()}:{os.getpid()}"
        assert sandbox.client.containers.list(all=True, filters={"label": mine},
                                              ignore_removed=True) == []


def test_a_slow_engine_does_not_hold_up_the_report(docker_client, tmp_path, monkeypatch):
    """The kill and the removal of a container that ran out of time may take the
    engine long: the report is made without waiting for them."""
    from docker.models.containers import Container

    kill, remove = Container.kill, Container.remove
    slow = 12  # seconds, far beyond the graces the sandbox gives the engine
    monkeypatch.setattr(Container, "kill", lambda self, *a, **k: (time.sleep(slow), kill(self)))
    monkeypatch.setattr(Container, "remove",
                        lambda self, **k: (time.sleep(slow), remove(self, **k)))
    folder = never_returning(tmp_path / "submission", NEVER_RETURNS["sleeps"])
    started = time.monotonic()
    result = report.validate(grading.grade(EXERCISE, folder, DockerSandbox(docker_client),
                                           EXERCISE.limits.override(**ONLY_THE_TOTAL)))
    elapsed = time.monotonic() - started
    assert elapsed <= owntime.backstop(TOTAL) + SLACK, f"the report took {elapsed:.1f} s"
    assert result["status"] == "graded" and result["sandbox"]["timed_out"], result["message"]
    assert "while this test was running" in {t["name"]: t for t in result["tests"]}[
        RUNNING]["message"]
    # The removal goes on after the report: wait for it, so no later test sees it.
    mine = f"{LABEL}.owner={socket.gethostname()}:{os.getpid()}"
    until = time.monotonic() + 4 * slow
    while docker_client.containers.list(all=True, filters={"label": mine}, ignore_removed=True):
        assert time.monotonic() < until, "the container was never removed"
        time.sleep(0.5)


# -- the report, from the start events (untrusted data) -------------------------------


def timed_out(*events):
    return report.build(EXERCISE, None, Run(backend="local", limits=EXERCISE.limits.facts(),
                                            events=list(events), timed_out=True), 1, WRAPPED)


def passed(name):
    return {"event": "test", "name": name, "status": "passed", "message": "", "mistakes": []}


def start(name):
    return {"event": "start", "name": name}


def messages(built):
    return [t["message"] for t in built["tests"]]


def test_the_test_running_at_the_limit_is_named_and_the_later_ones_not_run():
    total = EXERCISE.limits.total_seconds
    built = timed_out(start(ORDER[0]), passed(ORDER[0]), start(ORDER[1]))
    assert [t["status"] for t in built["tests"]] == ["passed", "timeout", "timeout", "timeout"]
    assert messages(built)[1:] == [
        RUNNING_AT_THE_LIMIT.format(total),
        *["not run: the run's time limit was reached before this test"] * 2]
    assert "the whole run's limit" in built["message"]  # the first to fix names it


def test_start_events_that_name_no_test_of_the_exercise_are_ignored():
    forged = [start("test_made_up"), start(7), {"event": "start"}, start(ORDER[2] + "x")]
    built = timed_out(start(ORDER[0]), passed(ORDER[0]), start(ORDER[1]), *forged)
    assert "while this test was running" in messages(built)[1]
    assert all(m.startswith("not run:") for m in messages(built)[2:])


def test_without_start_events_no_test_is_said_to_be_running():
    built = timed_out(passed(ORDER[0]))
    assert all(m.startswith("not run: the run's time limit") for m in messages(built)[1:])


def test_a_finished_test_is_never_the_running_one():
    built = timed_out(start(ORDER[0]), passed(ORDER[0]))
    assert messages(built)[0] == ""
    assert all(m.startswith("not run:") for m in messages(built)[1:])


# A call that sleeps twice its limit, beside threads of its own that are always
# ready to run and seldom run on a busy machine, graded whole in both sandboxes:
# its test is lost, and only it. How much of the sleep the group's wait covers
# depends on where the machine's load sits; test_owntime takes the worst case
# (all of it) for certain.
LOWERED = {
    "nice_19": ("os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)", 1),
    "idle_class": ("os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))", 1),
    "plain_threads": ("pass", 8),
}
SPINNING = """import hashlib
import os
import threading
import time

_BLOCK = bytes(4 << 20)


def _spin():
    {lower}
    while True:  # hashing a large block runs without the GIL
        hashlib.sha256(_BLOCK).digest()


for _ in range({threads}):
    threading.Thread(target=_spin, daemon=True).start()

"""


@pytest.mark.load
@pytest.mark.timeout(900)
@pytest.mark.parametrize("threads", sorted(LOWERED))
def test_a_sleep_beside_a_waiting_thread_is_charged_on_a_busy_machine(threads, sandbox,
                                                                      tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    lower, count = LOWERED[threads]
    limits = EXERCISE.limits
    sleeper = HELPERS.replace("def terminal_test(gameState):\n", "def terminal_test(gameState):\n"
                              f"    time.sleep({2 * limits.call_seconds})\n", 1)
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "minimax_helpers.py").write_text(SPINNING.format(lower=lower, threads=count)
                                               + sleeper)
    with busy():
        result = report.validate(grading.grade(EXERCISE, folder, sandbox, limits))
    assert result["status"] == "graded", result["message"]
    tests = {t["name"]: t for t in result["tests"]}
    assert tests["test_terminal_test"]["status"] == "timeout", tests["test_terminal_test"]
    # its points lost, and only those: the other tests call the grader's terminal_test
    assert result["score"] == result["max_score"] - tests["test_terminal_test"]["max_score"], [
        (t["name"], t["status"]) for t in result["tests"]]
