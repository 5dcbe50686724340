"""The Gradescope package: what its zip holds, and a run of it as Gradescope
runs it (setup.sh once, then run_autograder for each submission) in one
container of the grading image, as root, with no network.
"""

import hashlib
import io
import json
import os
import re
import stat
import subprocess
import sys
import tarfile
import tomllib
import zipfile

import pytest
from conftest import ROOT, run_lock, solution

from grader import exercises, image, installs
from grader.contracts import places
from grader.contracts.run import SLOT_UIDS
from grader.gradescope import autograder as gradescope_run
from grader.gradescope import package as gradescope_package
from grader.sandbox import tar

EXERCISE = exercises.load("helpers")
HELPERS = (solution("helpers") / "minimax_helpers.py").read_text()
SUITE = "/opt/minimax-grader/exercises/helpers/suite/test_helpers.py"


@pytest.fixture(scope="session")
def package(tmp_path_factory):
    """The package's zip and the names it holds, built once for the whole run:
    pytest-xdist's workers share it (a build downloads its wheels)."""
    with run_lock(tmp_path_factory, "gradescope-package") as shared:
        output, names = shared / "autograder.zip", shared / "autograder.names.json"
        if not names.exists():
            names.write_text(json.dumps(gradescope_package.build(EXERCISE, output)))
    return output, json.loads(names.read_text())


def contents(package):
    with zipfile.ZipFile(package[0]) as archive:
        return {info.filename: (archive.read(info), info.external_attr >> 16)
                for info in archive.infolist()}


def test_the_scripts_are_at_the_top_and_executable(package):
    held = contents(package)
    assert list(held) == package[1]
    for name in ("setup.sh", "run_autograder"):
        data, mode = held[name]
        assert stat.S_ISREG(mode) and mode & 0o111 == 0o111, name
        assert data.startswith(b"#!/usr/bin/env bash\n")
    assert b"-m grader.gradescope.autograder helpers\n" in held["run_autograder"][0]


def test_it_holds_the_harness_and_this_exercise_s_suite_only(package):
    held = contents(package)
    for path in installs.harness_files():
        assert held[places.layout_name(path)][0] == path.read_bytes()
    for path in installs.suite_files(EXERCISE.folder):
        name = f"exercises/helpers/{path.relative_to(EXERCISE.folder)}"
        assert held[name][0] == path.read_bytes()
    exercises = "exercises/"
    assert {name.removeprefix(exercises).split("/")[0]
            for name in held if name.startswith(exercises)} == {"helpers"}


def test_it_holds_no_reference_solution_and_nothing_of_the_tests(package):
    held = contents(package)
    assert not [name for name in held
                if name.startswith("tests/") or {"solution", "corpus"} & set(name.split("/"))]
    for path in places.SOLUTIONS.glob("*/solution/**/*.py"):
        answer = path.read_bytes()
        assert not [name for name, (data, _) in held.items() if answer in data], path
    ours = {hashlib.sha256(data).digest() for data, _ in held.values()}
    theirs = {path: hashlib.sha256(path.read_bytes()).digest()
              for path in [*(ROOT / "tests").rglob("*"), *places.SOLUTIONS.glob("*/corpus/**/*")]
              if "__pycache__" not in path.parts and path.is_file() and path.stat().st_size}
    assert [path for path, digest in theirs.items() if digest in ours] == []


def test_the_wheelhouse_covers_the_requirements_but_docker(package):
    held = contents(package)
    wanted = held["requirements.txt"][0].decode().split()
    names = {r.split(">")[0].split("=")[0].replace("-", "_") for r in wanted}
    assert {"pytest", "pytest_timeout", "jsonschema"} <= names and "docker" not in names
    wheels = {name.split("/")[1].split("-")[0].lower() for name in held
              if name.startswith("wheelhouse/")}
    assert names | {"pip"} <= wheels


def test_the_package_grades_with_its_own_files_alone(package, tmp_path):
    """The zip's grader, imported on its own, takes in and rejects an empty submission."""
    with zipfile.ZipFile(package[0]) as archive:
        archive.extractall(tmp_path / "source")
    (tmp_path / "submission").mkdir()
    code = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(tmp_path / 'source')!r})\n"
        "from grader.gradescope import autograder as gradescope_run\n"
        f"text = gradescope_run.results('helpers', {str(tmp_path / 'submission')!r})\n"
        "files = [m.__file__ for n, m in sys.modules.items() if n.split('.')[0] == 'grader']\n"
        "print(json.dumps({'results': json.loads(text), 'files': files}))\n")
    run = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         check=True)
    found = json.loads(run.stdout)
    assert all(f.startswith(str(tmp_path / "source")) for f in found["files"]), found["files"]
    assert any(f.endswith("sandbox/machine.py") for f in found["files"])
    assert found["results"]["score"] == 0
    assert "minimax_helpers.py is missing" in found["results"]["output"]


def test_a_grader_failure_still_writes_results(tmp_path, capsys):
    tmp_path.chmod(0o755)
    assert gradescope_run.main(["no_such_exercise"], home=tmp_path) == 0
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o700  # locked before anything runs
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    assert results["score"] == 0 and results["tests"] == []
    assert results["output"].startswith("The autograder itself failed (UnknownExercise")
    assert "this 0 is not your score" in results["output"]
    assert "UnknownExercise" in capsys.readouterr().err


def test_without_root_the_launcher_sandbox_is_an_error_never_a_silent_zero(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    results = json.loads(gradescope_run.results("helpers", solution("helpers")))
    assert results["score"] == 0
    assert results["output"].startswith("Not graded: the launcher sandbox runs only as root")
    assert {t["output"] for t in results["tests"]} == {"[error] not run"}


def test_the_zip_is_written_whole_or_not_at_all(monkeypatch, tmp_path):
    def broken(*args):
        yield "setup.sh", b"#!/usr/bin/env bash\n", gradescope_package.EXECUTABLE
        raise OSError("disk full")

    monkeypatch.setattr(image, "wheelhouse", lambda folder, requirements: None)
    monkeypatch.setattr(gradescope_package, "_entries", broken)
    output = tmp_path / "autograder.zip"
    output.write_bytes(b"the previous package")
    with pytest.raises(OSError, match="disk full"):
        gradescope_package.build(EXERCISE, output)
    assert output.read_bytes() == b"the previous package"
    assert [p.name for p in tmp_path.iterdir()] == ["autograder.zip"]


# Gradescope's published results.json format: the keys it names, and their types.
TOP_KEYS = {"score", "execution_time", "output", "output_format", "test_output_format",
            "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests",
            "leaderboard"}
TEST_KEYS = {"score", "max_score", "status", "name", "name_format", "number", "output",
             "output_format", "tags", "visibility", "extra_data"}
VISIBILITY = {"visible", "hidden", "after_due_date", "after_published"}


def check_format(results):
    assert set(results) <= TOP_KEYS
    assert isinstance(results["score"], (int, float)) and isinstance(results["output"], str)
    assert isinstance(results["execution_time"], (int, float))
    assert results["visibility"] in VISIBILITY and results["stdout_visibility"] in VISIBILITY
    assert [t["name"] for t in results["tests"]] == [t.title for t in EXERCISE.tests]
    for test, spec in zip(results["tests"], EXERCISE.tests, strict=True):
        assert set(test) <= TEST_KEYS
        assert test["status"] in ("passed", "failed") and isinstance(test["output"], str)
        assert test["max_score"] == spec.points and 0 <= test["score"] <= spec.points
        assert test["visibility"] in VISIBILITY
        assert all(isinstance(tag, str) for tag in test["tags"])
    assert results["score"] == sum(t["score"] for t in results["tests"])
    return {t["name"]: t for t in results["tests"]}


# Gradescope unpacks the zip (keeping its modes) and copies run_autograder up.
UNPACK = """
import os, zipfile
with zipfile.ZipFile("/tmp/autograder.zip") as archive:
    for info in archive.infolist():
        os.chmod(archive.extract(info, "/autograder/source"), info.external_attr >> 16 & 0o777)
"""


class Gradescope:
    """A container of the grading image standing in for Gradescope's."""

    def __init__(self, container):
        self.container = container

    def sh(self, script):
        code, output = self.container.exec_run(["bash", "-c", script], user="root")
        assert code == 0, output.decode(errors="replace")
        return output.decode(errors="replace")

    def install(self, zip_path):
        self.container.put_archive("/tmp", tar({"autograder.zip": zip_path.read_bytes()}))
        # Start from an image with none of the grader's users and files.
        self.sh("userdel student && userdel grader && rm -rf /opt/minimax-grader")
        self.sh(f"python3 -c '{UNPACK}' && cp /autograder/source/run_autograder /autograder/")
        self.sh("cd /autograder/source && ./setup.sh")

    def submit(self, files):
        self.sh("rm -rf /autograder/submission /autograder/results && "
                "mkdir -p /autograder/submission /autograder/results")
        self.container.put_archive("/autograder/submission",
                                   tar({n: d.encode() for n, d in files.items()}))

    def grade(self, files):
        self.submit(files)
        self.sh("cd /autograder && ./run_autograder")
        stream, _ = self.container.get_archive("/autograder/results/results.json")
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
            return json.loads(archive.extractfile("results.json").read())


@pytest.fixture(scope="module")
def gradescope(docker_client, package):
    container = docker_client.containers.run(
        image.default_tag(), entrypoint=["sleep", "infinity"], network_mode="none", user="0:0",
        detach=True, labels={"minimax-grader.test": "gradescope"})
    try:
        stand_in = Gradescope(container)
        stand_in.install(package[0])
        yield stand_in
    finally:
        container.remove(force=True)


def test_the_reference_solution_gets_full_marks(gradescope):
    results = gradescope.grade({"minimax_helpers.py": HELPERS})
    tests = check_format(results)
    assert results["score"] == EXERCISE.max_score
    assert {t["status"] for t in tests.values()} == {"passed"}


def test_a_known_mistake_loses_its_tests_and_is_named(gradescope):
    case = places.SOLUTIONS / "helpers" / "corpus" / "flipped_utilities"
    expect = tomllib.loads((case / "expect.toml").read_text())
    results = gradescope.grade({"minimax_helpers.py": (case / "minimax_helpers.py").read_text()})
    tests = check_format(results)
    failing = [spec for spec in EXERCISE.tests if spec.name in expect["failing"]]
    assert {n for n, t in tests.items() if t["status"] == "failed"} == {s.title for s in failing}
    assert results["score"] == EXERCISE.max_score - sum(s.points for s in failing)
    assert any(expect["mistake"] in t["tags"] for t in tests.values())
    assert all("expected" in tests[s.title]["output"] for s in failing)


def test_a_rejected_submission_gets_0_with_the_reason(gradescope):
    results = gradescope.grade({"minimax_helper.py": HELPERS})
    tests = check_format(results)
    assert results["score"] == 0
    assert "rejected: minimax_helpers.py is missing (found: minimax_helper.py)" in results["output"]
    assert all("the submission was rejected" in t["output"] for t in tests.values())


PROBE = '''
    import os
    def reads(path):
        try:
            open(path).close()
            return "yes"
        except OSError as exc:
            return type(exc).__name__
    raise RuntimeError(f"uid={os.getuid()} gid={os.getgid()} suite={reads(%r)} "
                       f"source={reads('/autograder/source/setup.sh')}")
''' % SUITE


def test_the_student_s_code_runs_as_student_and_reads_nothing_of_the_grader(gradescope):
    probe = HELPERS.replace("def terminal_test(gameState):\n",
                            "def terminal_test(gameState):" + PROBE)
    results = gradescope.grade({"minimax_helpers.py": probe})
    output = check_format(results)[EXERCISE.tests[0].title]["output"]
    uid, gid = map(int, re.search(r"uid=(\d+) gid=(\d+) suite=PermissionError "
                                  r"source=PermissionError", output).groups())
    assert uid == gid and uid in SLOT_UIDS  # a slot's uid, its own


# Grades in the container with the installed grader, and lists what the
# student's user still runs afterwards (zombies are dead: the stand-in's first
# process reaps nothing).
TIMED = """
import json, os, time
from pathlib import Path
from grader import exercises, intake
from grader.contracts.run import SLOT_UIDS
from grader.harness.runtime.launcher import student_pids
from grader.sandbox.machine import LauncherSandbox
exercise = exercises.load("helpers")
limits = exercise.limits.override(total_seconds=4, call_seconds=60, test_seconds=60)
submission = intake.take("/autograder/submission", exercise.files)
started = time.monotonic()
run = LauncherSandbox().run(exercise, submission, limits)
print(json.dumps({"timed_out": run.timed_out, "seconds": time.monotonic() - started,
                  "left": [Path(f"/proc/{pid}/stat").read_text() for uid in SLOT_UIDS
                           for pid in student_pids(uid)]}))
"""


def test_the_wall_clock_limit_holds_and_no_student_process_outlives_the_run(gradescope):
    stuck = HELPERS.replace("def terminal_test(gameState):\n", (
        "def terminal_test(gameState):\n    import subprocess, time\n"
        "    subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        "    time.sleep(600)\n"))
    gradescope.submit({"minimax_helpers.py": stuck})
    output = gradescope.sh("cd /opt/minimax-grader && "
                           f"/opt/minimax-grader-venv/bin/python -B -c '{TIMED}'")
    run = json.loads(output.splitlines()[-1])
    assert run["timed_out"] and run["seconds"] < 4 + 10
    assert run["left"] == []
