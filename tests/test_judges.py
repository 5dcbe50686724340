"""The local sandbox's warm judges: started once, forked per run, never changed by one.

Each test has judges of its own (``own_judges``): which process served a run,
and what is left of it after, are looked at directly.
"""

import os
import signal
import socket
import subprocess
import tempfile
import time

import pytest
from conftest import skip_loudly, solution

from grader import exercises, grading
from grader.contracts import judge_socket
from grader.sandbox import cgroups, judges, local_is_boundary
from grader.sandbox.local import LocalSandbox

EXERCISE = exercises.load("helpers")
HELPERS = (solution("helpers") / "minimax_helpers.py").read_text()
# At its import: children that sleep in sessions of their own, a kill of every
# process it can see, and files where it may write; its answers stay right.
ROWDY = """
import os, subprocess, sys
for _ in range(3):
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                     start_new_session=True)
try:
    os.kill(-1, 9)
except OSError:
    pass
for where in ("/tmp", os.environ.get("HOME", "/tmp")):
    try:
        open(os.path.join(where, "left.txt"), "w").write("left")
    except OSError:
        pass
"""
SLEEPS_AT_IMPORT = "import time\ntime.sleep(600)\n"


@pytest.fixture(autouse=True)
def bubblewrap_here():
    if not local_is_boundary():
        skip_loudly("the local sandbox's warm judges", "bwrap is not installed or can't make "
                    "its namespaces here (apt-get install bubblewrap)")


def graded(folder, source, **limits):
    (folder / "minimax_helpers.py").write_text(source)
    return grading.grade(EXERCISE, folder, LocalSandbox(), EXERCISE.limits.override(**limits))


def idle(pool: judges.Pool) -> dict[judges.Judge, list[int]]:
    """The pool's idle judges, once none is starting, each with its processes: its
    bubblewrap layers and itself."""
    deadline = time.monotonic() + 120
    while pool.starting.get(judges.Kind()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return {judge: sorted(cgroups.tree(judge.process.pid))
            for judge in pool.idle.get(judges.Kind(), [])}


def test_a_warm_judge_grades_run_after_run_each_in_a_fork_timed_in_its_group(own_judges,
                                                                            tmp_path):
    first = graded(tmp_path, HELPERS)
    seen = idle(own_judges)
    for _ in range(3):
        again = graded(tmp_path, HELPERS)
        assert again["score"] == again["max_score"] == first["score"]
        if again["sandbox"]["clock"] == "kernel":  # the run's child was timed in its group
            assert again["sandbox"]["used"]["cpu_seconds"] > 0
        seen = idle(own_judges) | seen
    # The first run's judge, and one started ahead when a run took the last idle one.
    assert len(seen) == 2 and idle(own_judges) == seen


def test_a_run_stopped_at_its_limit_and_a_rowdy_one_leave_the_judges_as_they_were(own_judges,
                                                                              tmp_path):
    graded(tmp_path, HELPERS)
    graded(tmp_path, HELPERS)  # and one started ahead
    before = idle(own_judges)
    stopped = graded(tmp_path, SLEEPS_AT_IMPORT + HELPERS, total_seconds=3)
    assert stopped["sandbox"]["timed_out"], stopped["message"]
    rowdy = graded(tmp_path, ROWDY + HELPERS)
    assert rowdy["status"] == "graded"
    after = graded(tmp_path, HELPERS)
    assert after["score"] == after["max_score"]
    assert idle(own_judges) == before
    for judge in before:
        assert not list(judge.home.iterdir()), "a run's folder was left in a judge's home"


def test_a_judge_that_ended_between_runs_is_replaced(own_judges, tmp_path):
    graded(tmp_path, HELPERS)
    [judge] = idle(own_judges)
    os.killpg(judge.process.pid, signal.SIGKILL)
    judge.process.wait(timeout=30)
    after = graded(tmp_path, HELPERS)
    assert after["score"] == after["max_score"], after["message"]
    assert judge not in idle(own_judges) and len(idle(own_judges)) == 1
    assert not judge.home.exists()


def test_a_judge_is_started_ahead_of_a_prepared_run_and_closed_with_its_pool(own_judges):
    LocalSandbox().prepare(EXERCISE, EXERCISE.limits)
    [judge] = idle(own_judges)
    assert judge.usable()
    own_judges.close()
    assert judge.process.poll() is not None and not judge.home.exists()


@pytest.mark.parametrize("data, kinds", [
    (b"", (judge_socket.READY,)),
    (b"not json", (judge_socket.EXIT,)),
    (b"[1, 2]", (judge_socket.EXIT,)),
    (judge_socket.encode(judge_socket.STARTED), (judge_socket.EXIT,)),
    (b'{"kind": null}', (judge_socket.READY, judge_socket.GO)),
])
def test_a_message_out_of_turn_is_refused(data, kinds):
    with pytest.raises(judge_socket.BadMessage):
        judge_socket.decode(data, *kinds)


@pytest.mark.parametrize("prefix", [judges.HOME_PREFIX, "minimax-grader-launcher-socket-"])
def test_a_dead_hosts_folders_are_swept_and_a_live_ones_kept(prefix, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = tmp_path / f"{prefix}{dead.pid}-abc"
    live = tmp_path / f"{prefix}{os.getpid()}-abc"
    other = tmp_path / f"minimax-grader-other-{dead.pid}-abc"
    for folder in (left, live, other):
        (folder / "run-x").mkdir(parents=True)
    assert judges.sweep(prefix) == 1
    assert not left.exists() and live.exists() and other.exists()


# At its import, in a container: which processes it sees run the judge's code, and
# what it can do with the launcher socket and its folder.
LOOKS_AROUND = """
import os, socket
def _attempt(action):
    try:
        action()
        return "done"
    except OSError as exc:
        return type(exc).__name__
_judging = sorted(pid for pid in os.listdir("/proc") if pid.isdigit() and any(
    word in open(f"/proc/{pid}/cmdline", "rb").read()
    for word in (b"pytest", b"supervisor", b"judge.py")))
_folder = "/run/minimax-grader-launcher-socket"
_connect = lambda: socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET).connect(
    _folder + "/launcher.sock")
print("LOOKED", _judging, _attempt(lambda: os.listdir(_folder)), _attempt(_connect),
      _attempt(lambda: open(_folder + "/planted", "w")))
"""


def test_in_docker_the_container_holds_no_judge_and_its_socket_takes_no_second_call(
        docker_client, own_judges, tmp_path):
    from grader.sandbox.docker import DockerSandbox

    (tmp_path / "minimax_helpers.py").write_text(LOOKS_AROUND + HELPERS)
    sandbox = DockerSandbox(docker_client)
    report = grading.grade(EXERCISE, tmp_path, sandbox, EXERCISE.limits)
    assert report["score"] == report["max_score"], report["message"]
    looked = {line for line in report["output"]["text"].splitlines()
              if line.startswith("LOOKED")}  # the same at every worker's import
    [(judging, listing, connecting, writing)] = [line.split()[1:] for line in looked]
    assert judging == "[]" and listing == "PermissionError"
    # As root, the socket is the root's alone; else it listens no more.
    assert connecting in ("PermissionError", "ConnectionRefusedError")
    assert writing != "done"


@pytest.mark.parametrize("said, taken", [("run-token", True), ("another", False), ("", False)])
def test_the_judge_takes_the_launcher_that_says_the_runs_token(said, taken, tmp_path):
    import threading

    from grader.harness.runtime import judge

    address = str(tmp_path / "judge.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(address)
    listener.listen(1)
    launcher = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)

    def connect():
        launcher.connect(address)
        launcher.sendall(said.encode())

    threading.Thread(target=connect).start()
    if taken:
        os.close(judge._launcher(listener.detach(), "run-token"))
    else:
        with pytest.raises(SystemExit):
            judge._launcher(listener.detach(), "run-token")
    launcher.close()
