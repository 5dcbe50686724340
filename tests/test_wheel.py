"""The grader as its users install it: a wheel built from the checkout,
installed (not editable) into a fresh virtual environment, and run from a
folder outside the checkout. It must find its exercises, suites, Dockerfile,
image scripts and Gradescope scripts in the venv, and hold no reference solution.

One venv serves the whole session. Its packages come from a wheelhouse
downloaded once per session (beside the wheel's build), at the versions this
session's own venv runs; the grader's own `pip download`s take it too (the
Gradescope package's wheels; the image's take those of the checkout's image).
Where that download fails, pip asks the index as it installs.
"""

import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

import pytest
from conftest import EXERCISES, ROOT, corpus, run_lock, skip_loudly, solution
from docker import DockerClient

from grader import exercises, image
from grader.contracts import places

# What setuptools reads to build the wheel, and solutions/, which it must leave out.
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "Dockerfile", "grader",
           "exercises", "solutions")
FLIPPED = corpus("helpers") / "flipped_utilities"
TEST_TAG = f"minimax-grader-wheeltest:{os.getpid()}"
ABSENT_BASE = "localhost:1/minimax-grader-absent:none"  # a pull fails at once


@dataclass
class Installed:
    venv: Path
    wheel: Path
    outside: Path  # where the commands run: a folder outside the checkout
    wheelhouse: Path | None  # where the venv's pip takes packages from (None: the index)

    def env(self) -> dict:
        """The environment of a user who installed the wheel: nothing of this session's.
        The grader's own `pip download`s take the session's wheelhouse, where there is one."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["COLUMNS"] = "200"  # rich's tables, whole: no label cut to fit
        if self.wheelhouse:
            env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(self.wheelhouse))
        return env

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """``minimax-grader *args`` from the venv, in the outside folder."""
        return subprocess.run([str(self.venv / "bin" / "minimax-grader"), *args],
                              cwd=self.outside, env=self.env(), capture_output=True, text=True)

    def python(self, code: str) -> str:
        """What the venv's Python prints running ``code`` in the outside folder."""
        done = subprocess.run([str(self.venv / "bin" / "python"), "-c", code], cwd=self.outside,
                              env=self.env(), capture_output=True, text=True, check=True)
        return done.stdout.strip()


def _pip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _constraints(path: Path) -> Path:
    """This venv's versions, for pip to install the same ones in the fresh venv
    (but of minimax-grader, which is the checkout here)."""
    pins = {f"{_normal(d.metadata['Name'])}=={d.version}" for d in metadata.distributions()
            if _normal(d.metadata["Name"]) != "minimax-grader"}
    path.write_text("".join(f"{pin}\n" for pin in sorted(pins)))
    return path


def _source(target: Path) -> Path:
    """A clean copy of what the wheel is built from. Built in the checkout, setuptools
    would reuse its build/ folder, where files deleted since would slip into the wheel."""
    target.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, target / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(ROOT / name, target / name)
    return target


def _wheelhouse(folder: Path, constraints: Path) -> Path | None:
    """``folder``, with the wheels of pip and of the grader's requirements downloaded
    into it now; None where that download fails (pip will ask the index)."""
    with open(ROOT / "pyproject.toml", "rb") as handle:
        project = tomllib.load(handle)
    wanted = ["pip", *project["project"]["dependencies"]]
    done = _pip("download", "--quiet", "--only-binary=:all:", "--dest", str(folder),
                "--constraint", str(constraints), *wanted)
    return folder if done.returncode == 0 else None


def _must(done: subprocess.CompletedProcess, reachable: bool, what: str) -> None:
    """A failed pip step fails the test; skipped loudly (failed under CI) where
    no package index may have answered."""
    if done.returncode == 0:
        return
    if not reachable:
        skip_loudly("the installed wheel", f"{what} failed, and no package index may answer: "
                    f"{done.stderr.strip()[-500:]}")
    pytest.fail(f"{what} failed:\n{done.stderr}")


def _make(work: Path) -> Path | None:
    """Build the wheel and install it into ``work``/venv; the wheelhouse, if any."""
    constraints = _constraints(work / "constraints.txt")
    source = _source(work / "source")
    with ThreadPoolExecutor(1) as pool:  # the build and the download, both mostly waiting
        built = pool.submit(_pip, "wheel", "--quiet", "--no-deps", "--wheel-dir",
                            str(work / "dist"), str(source))
        wheelhouse = _wheelhouse(work / "wheelhouse", constraints)
        reachable = wheelhouse is not None
        _must(built.result(), reachable, "building the wheel")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")],
                   check=True)
    # This venv's pip installs into the fresh one (pip >= 22.3, as Python 3.11's
    # is), pip included: the grader runs `python -m pip download` itself.
    done = _pip("--python", str(work / "venv" / "bin" / "python"), "install", "--quiet",
                "--no-compile",
                *(["--no-index", "--find-links", str(wheelhouse)] if reachable else []),
                "--constraint", str(constraints), "pip", *map(str, (work / "dist").glob("*.whl")))
    _must(done, reachable, "installing the wheel")
    return wheelhouse


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    # One venv for the whole run: pytest-xdist's workers share it.
    with run_lock(tmp_path_factory, "wheel") as shared:
        assert ROOT not in shared.parents, "the wheel's venv must lie outside the checkout"
        work, made = shared / "wheel", shared / "wheel.json"
        if not made.exists():
            shutil.rmtree(work, ignore_errors=True)  # what a failed worker left
            work.mkdir()
            wheelhouse = _make(work)
            made.write_text(json.dumps(wheelhouse and str(wheelhouse)))
    wheelhouse = json.loads(made.read_text())
    wheel, = (work / "dist").glob("minimax_grader-*.whl")
    return Installed(work / "venv", wheel, tmp_path_factory.mktemp("outside"),
                     wheelhouse and Path(wheelhouse))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


ANSWERS = {_digest(p.read_bytes()) for p in places.SOLUTIONS.glob("*/solution/**/*")
           if p.is_file()}


def _files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def test_the_wheel_holds_the_package_and_the_top_level_it_ships_and_nothing_else(installed):
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    packaged = {n.removeprefix("grader/") for n in names if n.startswith("grader/")}
    # The data, the schemas, the harness, the exercises and the Dockerfile: no answer.
    shipped = {f"shipped/exercises/{name}" for name in _files(EXERCISES)} | {"shipped/Dockerfile"}
    assert packaged == _files(ROOT / "grader") | shipped
    assert all(n.startswith(("grader/", "minimax_grader-")) for n in names), sorted(names)


def test_the_package_is_found_in_the_venv_not_the_checkout(installed):
    paths = installed.python("import grader; from grader.contracts import places as p\n"
                             "print(p.PACKAGE); print(p.EXERCISES); print(p.DOCKERFILE); "
                             "print(grader.__file__)").splitlines()
    for path in map(Path, paths):
        assert installed.venv in path.parents and ROOT not in path.parents, path


def test_the_installed_package_holds_no_reference_solution(installed):
    package = Path(installed.python("from grader.contracts import places; print(places.PACKAGE)"))
    held = [p for p in package.rglob("*") if p.is_file()]
    assert held and not [p for p in held if _digest(p.read_bytes()) in ANSWERS]
    assert not [p for p in held if {"solutions", "solution", "corpus"} & set(p.parts)]


def test_list_and_stub(installed):
    listed = installed.run("list")
    assert listed.returncode == 0, listed.stderr
    assert all(name in listed.stdout for name in exercises.known())
    stub = installed.run("stub", "helpers", "mywork")
    assert stub.returncode == 0, stub.stderr
    starter = installed.python("from grader.contracts import places; "
                               "print(places.EXERCISES / 'helpers' / 'starter')")
    written = installed.outside / "mywork" / "minimax_helpers.py"
    assert written.read_bytes() == (Path(starter) / "minimax_helpers.py").read_bytes()


def grade(installed: Installed, sandbox: str, submission: Path) -> dict:
    done = installed.run("grade", "--sandbox", sandbox, "--exercise", "helpers",
                         "--format", "json", str(submission))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["status"] == "graded" and report["sandbox"]["backend"] == sandbox
    return report


def test_grade_locally_full_marks_and_less(installed):
    right = grade(installed, "local", solution("helpers"))
    assert right["score"] == right["max_score"]
    wrong = grade(installed, "local", FLIPPED)
    assert wrong["score"] < wrong["max_score"]
    assert any("flipped_utilities" in t["mistakes"] for t in wrong["tests"])


def test_grade_in_docker(installed, docker_client):
    # The image the session built from the checkout is up to date for the wheel too:
    # the wheel holds the same harness and suites.
    report = grade(installed, "docker", solution("helpers"))
    assert report["score"] == report["max_score"]


def test_batch_a_tiny_class_locally(installed):
    the_class = installed.outside / "class"
    (the_class / "ada").mkdir(parents=True)
    shutil.copyfile(solution("helpers") / "minimax_helpers.py",
                    the_class / "ada" / "minimax_helpers.py")
    shutil.copyfile(FLIPPED / "minimax_helpers.py", the_class / "bob.py")
    done = installed.run("batch", "--exercise", "helpers", "--sandbox", "local", "--jobs", "2",
                         "class", "-o", "graded")
    assert done.returncode == 0, done.stderr
    with open(installed.outside / "graded" / "grades.csv", newline="") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert rows.keys() == {"ada", "bob"}
    assert float(rows["ada"]["score"]) == float(rows["ada"]["max_score"])
    assert float(rows["bob"]["score"]) < float(rows["bob"]["max_score"])


def test_gradescope_package(installed):
    done = installed.run("gradescope-package", "--exercise", "helpers", "-o", "autograder.zip")
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(installed.outside / "autograder.zip") as archive:
        held = {info.filename: archive.read(info) for info in archive.infolist()}
    assert {"setup.sh", "run_autograder", "exercises/helpers/suite/test_helpers.py",
            "exercises/helpers/exercise.toml"} <= held.keys()
    assert any(re.match(r"wheelhouse/pytest-.*\.whl$", name) for name in held)
    assert not [name for name, data in held.items() if _digest(data) in ANSWERS]


def test_check_solutions_takes_the_checkout_s_solutions(installed, tmp_path):
    # The instructor's layout, DIR/<exercise>/solution/: the checkout's solutions,
    # gathered (but the agent's, which plays its whole match: tests/test_cli.py has it).
    gathered = tmp_path / "solutions"
    suites = exercises.known(kind=exercises.SUITE)
    for name in suites:
        shutil.copytree(solution(name), gathered / name / "solution")
    done = installed.run("check-solutions", "--solutions", str(gathered), "--solutions-only")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 surprise(s)" in done.stdout
    assert all(f"solution of {name}" in done.stdout for name in suites)
    # The installed grader holds none of its own: said plainly.
    bare = installed.run("check-solutions", "--solutions-only")
    assert bare.returncode == 2 and "holds no solutions/" in bare.stderr


def _wheels_of(client: DockerClient, tag: str, folder: Path) -> Path:
    """The wheels the image ``tag`` was built from, copied into ``folder`` out of
    the layer that added them (the next one deletes them)."""
    copied = [step["Id"] for step in client.api.history(client.images.get(tag).id)
              if re.search(r"COPY dir:\w+ in /tmp/wheelhouse/ $", step["CreatedBy"])
              and step["Id"] != "<missing>"]  # a layer of an image built elsewhere
    assert len(copied) == 1, f"{tag} has no layer of its own that adds its wheels (a copy?)"
    holder = client.containers.create(copied[0], command=["true"], network_disabled=True)
    try:
        stream, _ = holder.get_archive("/tmp/wheelhouse")
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
            archive.extractall(folder, filter="data")
    finally:
        holder.remove()
    return folder / "wheelhouse"


def test_image_build(installed, docker_client, tmp_path):
    # pip download takes the newest wheels it is offered, and the checkout's image
    # has the index's of its day, not this venv's. Offered those, the installed
    # grader stages the checkout's very context, and Docker reuses every layer:
    # the image is the one the Docker tests grade with, made in seconds, not minutes.
    checkout = image.default_tag()
    wheels = _wheels_of(docker_client, checkout, tmp_path)
    done = replace(installed, wheelhouse=wheels).run("image", "build", "--tag", TEST_TAG)
    try:
        assert done.returncode == 0, done.stdout + done.stderr
        built = docker_client.images.get(TEST_TAG)
        assert built.labels[image.HASH_LABEL] == image.contents_hash()  # the checkout's
        assert built.id == docker_client.images.get(checkout).id, \
            "the installed grader built another image than the checkout's from the same wheels"
    finally:
        if done.returncode == 0:
            docker_client.images.remove(TEST_TAG)  # the tag only, where the image has others


def test_image_build_with_no_base_says_why_in_one_paragraph(installed, docker_client):
    done = installed.run("image", "build", "--base", ABSENT_BASE, "--tag", TEST_TAG)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and f"{ABSENT_BASE} is not here" in done.stderr
    assert "--base python:3.11-slim" in done.stderr and "debootstrap" in done.stderr
