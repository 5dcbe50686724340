"""The local sandbox in bubblewrap is a boundary: what a submission tries
against the grader's user has no effect, as root and as an ordinary user.

Each probe is checked on its real effect (the file is still there, the
process still runs, the listener took no connection), not only on what the
report says. The hostile corpus runs through this sandbox too (test_hostile).
"""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import unprivileged
from conftest import grade, skip_loudly, solution

from grader import exercises, grading
from grader.contracts import places
from grader.harness.runtime import closure
from grader.sandbox import local_is_boundary
from grader.sandbox.local import LocalSandbox

HELPERS = (solution("helpers") / "minimax_helpers.py").read_text()
AS_ROOT = os.geteuid() == 0
# Each attempt at import; the answers are right, so a full score shows the
# grading went on as usual.
PROBE = """
import os, signal, socket
from pathlib import Path
TARGETS = {targets!r}
succeeded = []

def attempt(name, action):
    try:
        action()
        succeeded.append(name)
    except Exception:
        pass

attempt("write", lambda: Path(TARGETS["write"]).write_text("a student was here"))
attempt("delete", lambda: os.remove(TARGETS["delete"]))
attempt("read", lambda: print("SECRET", Path(TARGETS["read"]).read_text()))
attempt("connect", lambda: socket.create_connection(("127.0.0.1", TARGETS["port"]), 2).send(b"x"))
attempt("signal", lambda: os.kill(TARGETS["pid"], signal.SIGKILL))
attempt("home", lambda: Path(TARGETS["home"], "planted").write_text("a student was here"))
attempt("suites", lambda: os.listdir(TARGETS["suites"]))
print("SUCCEEDED", succeeded)
"""


@pytest.fixture(autouse=True)
def bubblewrap_here():
    if not local_is_boundary():
        skip_loudly("the bubblewrap sandbox", "bwrap is not installed or can't make its "
                    "namespaces here (apt-get install bubblewrap)")


@pytest.fixture
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.setblocking(False)
    yield server
    server.close()


def targets(folder: Path, home: Path, uid: int | None, listener: socket.socket, pid: int
            ) -> dict:
    """Files, a process and a port of the grader's user (``uid``; ours when None)."""
    secret = f"secret-{os.urandom(8).hex()}"
    (folder / "keep.txt").write_text("keep me")
    (folder / "secret.txt").write_text(secret)
    (folder / "secret.txt").chmod(0o600)
    if uid is not None:
        for path in (folder / "keep.txt", folder / "secret.txt"):
            os.chown(path, uid, uid)
    return {"write": str(folder / "written.txt"), "delete": str(folder / "keep.txt"),
            "read": str(folder / "secret.txt"), "port": listener.getsockname()[1], "pid": pid,
            "home": str(home), "suites": str(exercises.load("helpers").suite),
            "secret": secret}


def held(report: dict, aimed: dict, folder: Path, home: Path, sleeper: subprocess.Popen,
         listener: socket.socket) -> None:
    assert report["status"] == "graded" and report["score"] == report["max_score"], report
    assert "SUCCEEDED []" in report["output"]["text"], report["output"]["text"]
    assert not (folder / "written.txt").exists()
    assert (folder / "keep.txt").read_text() == "keep me"
    assert aimed["secret"] not in json.dumps(report)
    with pytest.raises(BlockingIOError):
        listener.accept()
    assert sleeper.poll() is None, "the grader's user's process was killed"
    assert not (home / "planted").exists()


def probe(folder: Path, aimed: dict) -> Path:
    source = PROBE.format(targets={k: v for k, v in aimed.items() if k != "secret"})
    (folder / "minimax_helpers.py").write_text(source + HELPERS)
    return folder


# As root (CI), the grader's user is root and its sandbox runs as a uid of its
# own; as an ordinary user, the sandbox runs as that very uid, and only the
# namespaces keep the user's files, processes and ports apart.
WHO = ["tests' user", "ordinary user"] if AS_ROOT else ["tests' user"]


@pytest.mark.parametrize("who", WHO)
def test_a_probe_against_the_graders_user_changes_nothing(who, tmp_path, listener, monkeypatch):
    uid = unprivileged.UID if who == "ordinary user" else None
    with unprivileged.own_folder() as own:
        probe_as(uid, own if uid else tmp_path, listener, monkeypatch)


def probe_as(uid: int | None, parent: Path, listener: socket.socket, monkeypatch) -> None:
    home, mine, submitted, temp = (unprivileged.folder(parent, name, uid or os.getuid())
                                   for name in ("home", "mine", "submitted", "temp"))
    with subprocess.Popen(["sleep", "120"], **as_user(uid)) as sleeper:
        aimed = targets(mine, home, uid, listener, sleeper.pid)
        try:
            if uid is None:
                monkeypatch.setenv("HOME", str(home))
                report = grade("helpers", probe(submitted, aimed))
            else:
                report = unprivileged.grade("helpers", probe(submitted, aimed), temp, home=home)
            held(report, aimed, mine, home, sleeper, listener)
        finally:
            sleeper.kill()


def as_user(uid: int | None) -> dict:
    return {} if uid is None else {"user": uid, "group": uid, "extra_groups": []}


def test_the_worker_sees_its_own_modules_and_nothing_else_of_the_grader(submission):
    """Its view holds the closure of the zygote that forks it (the worker's and
    the zygote's own modules), computed from their imports at run time; the
    suites, the reference search and the mistake models are not there."""
    package = places.PACKAGE
    lister = ("import os\nfor top, _, names in os.walk(%r):\n"
              "    print(*(os.path.join(top, n) for n in names if n.endswith('.py')), sep='\\n')\n"
              % str(package))
    report = grade("helpers", submission("minimax_helpers.py", lister + HELPERS))
    seen = set(report["output"]["text"].split())
    expected = {str(Path(closure.ROOT, *m.split(".")))
                for m in closure.worker_modules(closure.ZYGOTE)}
    expected = {p + ".py" if os.path.isfile(p + ".py") else p + "/__init__.py" for p in expected}
    assert seen == expected


# At import, in every worker: what would reach the zygote that forked it (the
# first process of their PID namespace), and the processes a worker finds.
ZYGOTE_PROBE = """
import os, signal, time
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGSTOP, signal.SIGKILL):
    os.kill(1, sig)
reached = []
for path in ("/proc/1/mem", "/proc/1/environ", "/proc/1/fd"):
    try:
        os.listdir(path) if path.endswith("fd") else open(path, "rb").read(1)
        reached.append(path)
    except Exception:  # refused by the kernel, or by the worker's guard first
        pass
print("REACHED", reached)
print("OTHERS", [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid())])
if os.fork() == 0:  # a process that would outlive its test
    time.sleep(60)
    os._exit(0)
"""


def test_the_zygote_is_out_of_its_workers_reach_and_ends_what_each_leaves(submission):
    """Every worker signals the run's zygote and reads its memory and files, and
    leaves a process behind: each test still gets its worker (the zygote got no
    signal), nothing of the zygote's was read (it is not dumpable), and no
    worker finds another's process (each kill ended them all)."""
    report = grade("helpers", submission("minimax_helpers.py", ZYGOTE_PROBE + HELPERS))
    assert report["status"] == "graded" and report["score"] == report["max_score"], report
    text = report["output"]["text"]
    assert "REACHED []" in text and "REACHED ['" not in text, text
    assert "OTHERS []" in text and "OTHERS ['" not in text, text


def test_without_bubblewrap_root_is_refused_and_an_ordinary_user_is_graded():
    exercise = exercises.load("helpers")
    if AS_ROOT:
        report = grading.grade(exercise, solution("helpers"), LocalSandbox(bubblewrap=False),
                               exercise.limits)
        assert report["status"] == "error" and report["score"] is None
        assert "will not run students' code as root without bubblewrap" in report["message"]
        assert "apt-get install bubblewrap" in report["message"]
        with unprivileged.own_folder() as own:
            report = unprivileged.grade("helpers", solution("helpers"), own, bubblewrap=False)
    else:
        report = grading.grade(exercise, solution("helpers"), LocalSandbox(bubblewrap=False),
                               exercise.limits)
    assert report["status"] == "graded" and report["score"] == report["max_score"]


def test_the_supervisor_sees_no_reference_solution_or_corpus(tmp_path):
    """The supervisor's view holds the package and the exercises' folder, never
    ``solutions/``; of an added exercise's folder, only what the image would hold
    (its suite), so nothing else an instructor keeps there is in reach."""
    from grader.sandbox import bubblewrap, slots

    added = tmp_path / "mine" / "my_helpers"
    for part in ("suite", "solution", "notes"):
        (added / part).mkdir(parents=True)
        (added / part / "x.py").write_text("")
    wanted = [places.EXERCISES / "helpers" / "suite", added / "suite"]
    hidden = [places.SOLUTIONS, places.SOLUTIONS / "helpers" / "solution", added / "solution",
              added / "notes"]
    lister = "import os, sys\nfor f in sys.argv[1:]:\n    print(f, os.path.exists(f))\n"
    work = tmp_path / "work"
    work.mkdir()
    argv = [sys.executable, "-c", lister, *map(str, wanted + hidden)]
    with slots.held_uid() as uid:
        done = subprocess.run(bubblewrap.supervisor_command(work, uid, argv, exercise=added),
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    seen = dict(line.split() for line in done.stdout.splitlines())
    assert [seen[str(path)] for path in wanted] == ["True"] * len(wanted)
    assert [seen[str(path)] for path in hidden] == ["False"] * len(hidden)
    assert all(path.exists() for path in hidden)  # a checkout's, out of the view's reach
