"""The Docker sandbox on the real engine: same verdicts as the local sandbox,
every limit holding, every container removed.

Skipped only where no Docker engine answers (said loudly at the end of the run).
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT, frozen_once_busy, left_behind, skip_loudly, solution

from grader import exercises, grading, image, report, sandbox, solutions
from grader.contracts.run import SLOT_UIDS
from grader.image import default_tag
from grader.sandbox import cgroups, engine_groups
from grader.sandbox.containers import LABEL, host_config, sweep
from grader.sandbox.docker import DockerSandbox

HELPERS = (solution("helpers") / "minimax_helpers.py").read_text()
# The two sandboxes must agree where they could differ: every style of correct
# file, the stubs, files that fail to import, cheats and files that touch the
# grader's counters, and one plainly diagnosed mistake per lesson exercise (a
# mistake of logic alone answers alike in any process; tests/test_corpus.py
# grades every case locally). A game exercise's run is the student's search over
# thousands of positions, seconds each: a rules mistake, a search mistake that
# costs values and counts, a search stopped for its calls; tests/test_batch.py
# grades each one's reference solution, a mistake and its stub in Docker too.
# Alpha-beta and iterative deepening, searches of seconds too, send their
# reference and their cheats (tests/test_batch.py: a mistake and the stub).
GAME_SAMPLE = {"is_end_missing_diagonal", "wrong_bound_updated", "depth_not_decremented"}
SEARCHES = {"alphabeta", "iterative_deepening"}
SANDBOX_SENSITIVE = ("correct_", "stub", "import", "syntax_", "cheat", "edits_", "removes_",
                     "patches_", "lying_", "caches_", "two_mistakes")


def _lesson_sample(cases: list[solutions.Case]) -> list[solutions.Case]:
    """Of each lesson exercise's cases, those the sandboxes could tell apart."""
    kept, plain = [], set()
    for case in cases:
        name = case.path.name
        if case.reference or name.startswith(SANDBOX_SENSITIVE):
            kept.append(case)
        elif case.exercise not in plain:  # cases come sorted: the first plain mistake
            plain.add(case.exercise)
            kept.append(case)
    return kept


CASES = [case for case in solutions.built_in()
         if case.exercise in SEARCHES and (case.reference or case.path.name.startswith("cheat"))
         or case.path.name in GAME_SAMPLE and not case.reference
         and exercises.load(case.exercise).game != "isolation"]
CASES += _lesson_sample([case for case in solutions.built_in()
                         if exercises.load(case.exercise).game == "isolation"
                         and case.exercise not in SEARCHES])


@pytest.fixture(scope="module")
def docker(docker_client):
    yield DockerSandbox(docker_client)


def grade_docker(docker, path, exercise_id="helpers", **limits):
    exercise = exercises.load(exercise_id)
    return report.validate(
        grading.grade(exercise, path, docker, exercise.limits.override(**limits)))


def helpers_with(submission, code, where="def terminal_test(gameState):\n"):
    """The reference helpers with ``code`` run first in terminal_test (or at import)."""
    if where is None:
        return submission("minimax_helpers.py", code + "\n" + HELPERS)
    return submission("minimax_helpers.py", HELPERS.replace(where, where + code))


def statuses(result):
    return {t["name"]: t["status"] for t in result["tests"]}


@pytest.mark.parametrize("case", CASES, ids=[case.label for case in CASES])
def test_same_verdicts_as_the_local_sandbox(docker, case, graded_locally):
    through_docker = grade_docker(docker, case.path, case.exercise)
    assert through_docker["sandbox"]["backend"] == "docker"
    assert solutions.problems_of(case, through_docker) == []
    local = graded_locally(case)
    for ours, theirs in zip(through_docker["tests"], local["tests"], strict=True):
        assert (ours["name"], ours["status"] == "passed") == (theirs["name"],
                                                              theirs["status"] == "passed")
        # A slow wrong search near its limit (depth_not_decremented on the larger
        # board) may run out of time in one sandbox and fail in the other, by load
        # alone: the points agree; the status and mistakes, where neither timed out.
        if "timeout" not in (ours["status"], theirs["status"]):
            assert (ours["status"], ours["mistakes"]) == (theirs["status"], theirs["mistakes"])


def test_a_memory_hog_is_killed_and_reported_out_of_memory(docker, submission):
    folder = helpers_with(submission, "    hog = []\n    while True:\n"
                                      "        hog.append(bytearray(8 << 20))\n")
    result = grade_docker(docker, folder, memory_mb=128)
    assert result["sandbox"]["out_of_memory"] is True
    assert "ran out of memory (the limit is 128 MB)" in result["message"]
    test = next(t for t in result["tests"] if t["name"] == "test_terminal_test")
    assert test["status"] == "error"
    assert "crashed" in test["message"] and "SIGKILL" in test["message"]
    assert statuses(result)["test_min_value"] == "passed"


def test_a_fork_bomb_is_contained_and_the_next_submission_graded(docker, submission):
    folder = helpers_with(submission, "    import os\n    while True:\n"
                                      "        try:\n            os.fork()\n"
                                      "        except OSError:\n            pass\n")
    started = time.monotonic()
    result = grade_docker(docker, folder, call_seconds=3)
    assert time.monotonic() - started < 60
    assert statuses(result)["test_terminal_test"] in ("timeout", "error", "failed")
    assert statuses(result)["test_min_value"] == "passed"
    after = grade_docker(docker, solution("helpers"))
    assert after["score"] == after["max_score"]


PROBE = '''
import os, socket
def attempt(what, action):
    try:
        action()
        print(what, "ALLOWED")
    except Exception as exc:
        print(what, "refused:", type(exc).__name__)
'''


def test_no_network(docker, submission):
    code = PROBE + ('attempt("connect", lambda: socket.create_connection(("192.0.2.1", 80), '
                    'timeout=3))\nattempt("dns", lambda: socket.getaddrinfo("example.org", 80))\n')
    result = grade_docker(docker, helpers_with(submission, code, where=None))
    output = result["output"]["text"]
    assert "connect refused" in output and "dns refused" in output
    assert "ALLOWED" not in output and result["score"] == 10


def test_writes_only_in_the_tmpfs(docker, submission):
    code = PROBE + "".join(
        f'attempt("write {path}", lambda: open("{path}", "w").write("x"))\n'
        for path in ("/opt/x", "/etc/x", "/x", "/work/x", "/work/submission/x",
                     "/opt/minimax-grader/grader/harness/runtime/x", "/tmp/ok"))
    result = grade_docker(docker, helpers_with(submission, code, where=None))
    allowed = {line for line in result["output"]["text"].splitlines() if "ALLOWED" in line}
    assert allowed == {"write /tmp/ok ALLOWED"}


def test_the_student_reads_nothing_of_the_grader(docker, submission):
    # The judge's files are not in the image at all (it runs on the host, and
    # test_image.py lists what the image holds): not found, or behind a folder the
    # student's user can't enter.
    absent = ["/opt/minimax-grader/exercises/helpers/suite/test_helpers.py",
              "/opt/minimax-grader/grader/harness/lesson/search.py",
              "/opt/minimax-grader/grader/harness/checking/mistakes.py",
              "/opt/minimax-grader/grader/games/isolation/suite_positions.py",
              "/opt/minimax-grader/grader/harness/runtime/student.py"]
    # The launcher's own files are there and kept from the student, their bytecode
    # as their source.
    kept = ["/opt/minimax-grader/grader/harness/runtime/launcher.py",
            "/opt/minimax-grader/grader/harness/runtime/spawn.py",
            "/opt/minimax-grader/grader/harness/runtime/__pycache__/launcher.cpython-311.pyc"]
    secrets = absent + kept
    code = PROBE + "".join(f'attempt("read {p}", lambda: open("{p}").read())\n' for p in secrets)
    worker = "/opt/minimax-grader/grader/harness/runtime/__pycache__/worker.cpython-311.pyc"
    code += f'attempt("read {worker}", lambda: open("{worker}", "rb").read())\n'
    code += ('print("uid", os.getuid(), os.getgid(), os.getgroups())\n'
             'attempt("kill parent", lambda: os.kill(os.getppid(), 9))\n'
             'attempt("kill 1", lambda: os.kill(1, 9))\n'
             'attempt("setuid", lambda: os.setuid(0))\n')
    result = grade_docker(docker, helpers_with(submission, code, where=None))
    output = result["output"]["text"]
    for path in absent:  # (the job's settings, /work/job.json, are no secret)
        assert re.search(f"read {re.escape(path)} refused: (FileNotFoundError|PermissionError)",
                         output)
    for path in kept:
        assert f"read {path} refused: PermissionError" in output
    # ... and the worker's own bytecode is there for it, so it is not compiled each time.
    assert f"read {worker} ALLOWED" in output
    uid, gid, groups = re.search(r"uid (\d+) (\d+) (\[.*\])", output).groups()
    assert uid == gid and int(uid) in SLOT_UIDS and groups == "[]"  # a slot's uid, its own
    for act in ("kill parent", "kill 1", "setuid"):
        assert f"{act} refused: PermissionError" in output
    assert result["score"] == 10


def test_a_process_that_ignores_signals_is_killed_at_the_deadline(docker, submission):
    code = ("    import signal, time\n"
            "    for s in signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP}:\n"
            "        try:\n            signal.signal(s, signal.SIG_IGN)\n"
            "        except (OSError, ValueError):\n            pass\n"
            "    while True:\n        time.sleep(1)\n")
    started = time.monotonic()
    result = grade_docker(docker, helpers_with(submission, code), total_seconds=8,
                          call_seconds=60, test_seconds=60)
    assert time.monotonic() - started < 8 + 15
    assert result["status"] == "graded" and result["sandbox"]["timed_out"]
    assert "stopped at its time limit of 8 s" in result["message"]
    assert statuses(result)["test_terminal_test"] == "timeout"


def test_an_output_flood_gives_a_small_valid_report(docker, submission):
    code = "import sys\nfor _ in range(400):\n    sys.stdout.write('#' * 250_000)\n"
    result = grade_docker(docker, helpers_with(submission, code, where=None))
    assert result["output"]["truncated"] and result["output"]["bytes"] >= 100_000_000
    assert len(json.dumps(result)) < 64_000
    assert result["score"] == 10


def test_the_container_is_hardened(docker_client):
    limits = exercises.load("helpers").limits
    container = docker_client.containers.create(default_tag(), labels={LABEL: "1"},
                                                **host_config(limits))
    try:
        config = container.attrs["HostConfig"]
    finally:
        container.remove(force=True)
    assert config["Privileged"] is False
    assert config["NetworkMode"] == "none"
    assert config["PidMode"] in ("", "private") and config["IpcMode"] != "host"
    assert config["UTSMode"] in ("", "private") and config["UsernsMode"] in ("", "private")
    assert config["ReadonlyRootfs"] is True
    assert not config.get("Binds") and not config.get("Mounts") and not config.get("Devices")
    assert config["CapDrop"] == ["ALL"]
    assert set(config["CapAdd"]) <= {"SETUID", "SETGID", "KILL"}
    assert "no-new-privileges" in config["SecurityOpt"]
    assert config["Memory"] == config["MemorySwap"] == limits.memory_mb << 20
    assert config["NanoCpus"] > 0 and 0 < config["PidsLimit"] <= 256
    ulimits = {u["Name"]: (u["Soft"], u["Hard"]) for u in config["Ulimits"]}
    assert ulimits["core"] == (0, 0)
    assert ulimits["nofile"][0] == ulimits["nofile"][1] <= 1024
    assert ulimits["fsize"][0] == ulimits["fsize"][1] == limits.file_bytes
    assert config["LogConfig"]["Type"] == "json-file"
    assert config["LogConfig"]["Config"]["max-size"] == "1m"
    assert set(config["Tmpfs"]) == {"/work", "/tmp"}
    assert all("size=" in options for options in config["Tmpfs"].values())
    assert config["ShmSize"] <= 16 << 20  # tmpfs memory counts against the limit


def test_a_containers_group_is_a_v2_one_the_host_reads_and_freezes(docker_client):
    """Whatever the engine's version (this machine's is v1, with v2 beside it), a
    container is timed and frozen by a cgroup v2 group: the engine's or one made."""
    why = cgroups.available()
    if why:
        skip_loudly("a container's control group", why)
    container = docker_client.containers.run(
        default_tag(), entrypoint=["python3", "-c", "while True: pass"], detach=True,
        labels={LABEL: "1"}, network_mode="none")
    group = None
    try:
        container.reload()
        group = engine_groups.of(container)
        assert group is not None and group.folder.is_relative_to(cgroups.v2_mount())
        frozen_once_busy(group)
        assert group.waited_seconds() is not None  # its pressure: the wait for a CPU
        group.thaw()
    finally:
        if group is not None and group.owned:
            engine_groups.drop(group)
        container.remove(force=True)


def test_sweep_removes_leftovers_but_not_live_runs(docker_client):
    leftover = docker_client.containers.create(default_tag(), labels={LABEL: "1",
                                                              f"{LABEL}.owner": "gone:1"})
    # created by a live grader (this process) and not started yet: a batch does that
    live = docker_client.containers.create(default_tag(), labels={
        LABEL: "1", f"{LABEL}.owner": f"{socket.gethostname()}:{os.getpid()}"})
    try:
        sweep(docker_client)  # another grader's sweep on this engine may come first
        assert not docker_client.containers.list(all=True, filters={"id": leftover.id},
                                                 ignore_removed=True)
        assert docker_client.containers.list(all=True, filters={"id": live.id})
    finally:
        live.remove(force=True)


def wait_for_warm(sandbox):
    deadline = time.monotonic() + 30
    while not sandbox.pool.ready:
        assert time.monotonic() < deadline, "no warm container came"
        time.sleep(0.1)
    return sandbox.pool.ready[0][1].container


def test_warm_containers_serve_one_run_each_and_close_removes_them(docker_client):
    from docker.errors import NotFound

    exercise = exercises.load("helpers")
    warm = DockerSandbox(docker_client, warm=1)
    mine = {"label": f"{LABEL}.owner={socket.gethostname()}:{os.getpid()}"}
    try:
        assert grading.grade(exercise, solution("helpers"), warm, exercise.limits)["score"] == 10
        for _ in range(2):
            waiting = wait_for_warm(warm)
            waiting.reload()
            assert waiting.status == "running"  # started ahead, waiting for its job
            report = grading.grade(exercise, solution("helpers"), warm, exercise.limits)
            assert report["score"] == 10
            with pytest.raises(NotFound):  # it served this run, and only this one
                waiting.reload()
        wait_for_warm(warm)
    finally:
        warm.close()
    assert docker_client.containers.list(all=True, filters=mine, ignore_removed=True) == []


def test_close_waits_for_a_warm_up_still_making_its_container(docker_client, monkeypatch):
    """A warm-up the engine is slow to serve, under way when the batch ends: close()
    returns only once its container is made and removed, so that the end of the
    process can't cut it off and leave the container behind."""
    from docker.models.containers import ContainerCollection

    gate, waiting = threading.Event(), threading.Event()
    create = ContainerCollection.create

    def slow_for_warm_ups(collection, *args, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            waiting.set()
            assert gate.wait(60), "the test never opened the gate"
        return create(collection, *args, **kwargs)

    monkeypatch.setattr(ContainerCollection, "create", slow_for_warm_ups)
    exercise = exercises.load("helpers")
    warm = DockerSandbox(docker_client, warm=1)
    mine = {"label": f"{LABEL}.owner={socket.gethostname()}:{os.getpid()}"}
    assert grading.grade(exercise, solution("helpers"), warm, exercise.limits)["score"] == 10
    assert waiting.wait(60)  # the warm-up is inside the engine's create
    closing = threading.Thread(target=warm.close)
    closing.start()
    closing.join(0.5)
    assert closing.is_alive()  # close() waits for it ...
    gate.set()
    closing.join(120)
    assert not closing.is_alive() and not any(t.is_alive() for t in warm.pool.warming)
    # ... and what it made is gone when close() returns
    assert docker_client.containers.list(all=True, filters=mine, ignore_removed=True) == []


def test_ctrl_c_removes_the_container(docker_client, submission):
    folder = helpers_with(submission, "import time\ntime.sleep(300)\n", where=None)
    command = [sys.executable, "-m", "grader", "grade", "--sandbox", "docker", "--exercise",
               "helpers", str(folder)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    its_own = {"label": f"{LABEL}.owner={socket.gethostname()}:{process.pid}"}
    while not docker_client.containers.list(filters=its_own, ignore_removed=True):
        assert time.monotonic() < deadline, "no container started"
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    assert left_behind(docker_client) == []


def test_missing_image_or_engine_is_an_error_report_never_a_zero(docker_client, monkeypatch):
    assert "is missing" in image.problem(docker_client, "minimax-grader:no-such-tag")
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    chosen = sandbox.backend("docker")
    assert isinstance(chosen, sandbox.Unavailable)
    exercise = exercises.load("helpers")
    result = grading.grade(exercise, solution("helpers"), chosen, exercise.limits)
    assert result["status"] == "error" and result["score"] is None
    assert "no Docker engine answers" in result["message"]


def test_a_machine_without_bubblewrap_is_told_what_to_do(docker_client, monkeypatch, capsys):
    """The judge runs on the host, in bubblewrap's view: where bubblewrap can't make
    it, ``grade --sandbox docker`` reports a grader error that says what is missing
    and the ways out, and starts no container."""
    from grader import cli
    from grader.sandbox import bubblewrap

    monkeypatch.setattr(bubblewrap, "command", lambda: None)
    assert cli.main(["grade", "--sandbox", "docker", "--exercise", "helpers", "--format",
                     "json", str(solution("helpers"))]) == 0
    out, err = capsys.readouterr()
    result = report.validate(json.loads(out))
    assert result["status"] == "error" and result["score"] is None
    assert "bubblewrap is not installed here or can't make its namespaces" in result["message"]
    for way_out in ("apt-get install bubblewrap", "gradescope-package", "--sandbox local"):
        assert way_out in result["message"]
    assert result["sandbox"]["layout"] == "none" and result["sandbox"]["isolated"] is False
    assert "Traceback" not in err and left_behind(docker_client) == []


def test_auto_never_picks_docker_where_bubblewrap_is_missing(docker_client, monkeypatch, capsys):
    """The engine and the image are there, bubblewrap is not: ``auto`` says so up
    front and falls back to the bare local sandbox (an ordinary user), or, as
    root, grades nothing and says why; never a container per run that fails."""
    from grader import cli
    from grader.sandbox import bubblewrap

    monkeypatch.setattr(bubblewrap, "command", lambda: None)
    assert cli.main(["grade", "--exercise", "helpers", "--format", "json",
                     str(solution("helpers"))]) == 0
    out, err = capsys.readouterr()
    result = report.validate(json.loads(out))
    assert "bubblewrap is not installed here" in (result["message"] if os.geteuid() == 0 else err)
    if os.geteuid() == 0:
        assert result["status"] == "error" and result["sandbox"]["layout"] == "none"
        assert "will not run students' code as root without bubblewrap" in result["message"]
        assert err == ""
    else:
        assert result["score"] == result["max_score"] and result["sandbox"]["layout"] == "bare"
        assert err.count("\n") == 1 and "not a security boundary" in err
    assert left_behind(docker_client) == []


def test_auto_picks_docker_when_the_engine_and_image_are_there(docker_client, capsys):
    from grader import cli

    assert cli.main(["grade", "--exercise", "helpers", "--format", "json",
                     str(solution("helpers"))]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["sandbox"]["backend"] == "docker" and err == ""


def test_no_container_is_left(docker_client):
    assert left_behind(docker_client) == []
