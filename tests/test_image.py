"""Building the grading image where no base image can be had.

Every way the build can fail here (no registry, no debootstrap, not root,
make-base-image failing, a named base that is absent or lacks Python, a base
that vanishes during the build) must end `minimax-grader image build` in one
paragraph that says why and the ways out, with no traceback, and exit 2. The
real engine is used where one answers; the bases are made unavailable by
name, so the images other tests need are never touched.
"""

import dataclasses
import io
import json
import os
import re
import shutil
import threading
import time
import uuid

import pytest
from conftest import skip_loudly, solution
from docker.errors import APIError, ImageNotFound

from grader import __version__, cli, exercises, grading, image, installs
from grader.contracts import places
from grader.sandbox.docker import DockerSandbox
from grader.sandbox.local import LocalSandbox

# A pull from here fails at once (nothing listens on port 1), with or without a registry.
NO_REGISTRY = "localhost:1/minimax-grader-absent:none"
TAG = f"minimax-grader-test-nobuild:{os.getpid()}"  # never built; removed if it were
TEST_LABEL = "minimax-grader.test-base"
WAYS_OUT = ("`minimax-grader image build --base python:3.11-slim`", "apt-get install debootstrap")


class NoRegistry:
    """A Docker client with no image at all and no registry to pull from."""

    class images:
        @staticmethod
        def get(name):
            raise ImageNotFound(name)

        @staticmethod
        def pull(name):
            raise APIError(f"pull access denied for {name}")


def test_no_base_and_no_way_to_one_says_what_to_do(monkeypatch):
    monkeypatch.setattr(image.shutil, "which", lambda name: None)
    try:
        image.pick_base(NoRegistry(), "auto")
    except image.NoBase as exc:
        said = str(exc)
    else:
        raise AssertionError("a base was picked with none to be had")
    assert all(way in said for way in WAYS_OUT)
    assert "debootstrap is not installed" in said or "not root" in said


@pytest.fixture(scope="module")
def engine():

    try:
        client = image.connect()
    except image.NoEngine as exc:
        skip_loudly("the image build's failures", f"no Docker engine answers ({exc})")
    yield client
    assert not image.present(client, TAG), f"{TAG} was built where no build could succeed"


@pytest.fixture
def no_bases(monkeypatch):
    """Neither base can be had: the Debian-made one's name is absent, and the
    registry's can't be pulled."""
    monkeypatch.setattr(image, "BASE", f"minimax-grader-base:absent-{uuid.uuid4().hex[:8]}")
    monkeypatch.setattr(image, "REGISTRY_BASE", NO_REGISTRY)


def path_without(tool):
    """$PATH without the folders that hold ``tool``."""
    return os.pathsep.join(folder for folder in os.environ["PATH"].split(os.pathsep)
                           if not os.path.exists(os.path.join(folder, tool)))


def image_build(capfd, *flags, tag=TAG):
    """Run `minimax-grader image build --tag TAG *flags`: (exit status, its error paragraph)."""
    code = cli.main(["image", "build", "--tag", tag, *flags])
    err = capfd.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("minimax-grader: error: ") and err.count("\n") == 1, err  # one paragraph
    return code, err


@pytest.mark.parametrize("lacking", ["debootstrap", "root"])
def test_with_no_base_to_be_had_image_build_says_why_and_the_two_ways_out(
        engine, no_bases, monkeypatch, capfd, lacking):
    monkeypatch.setenv("PATH", path_without("debootstrap"))
    monkeypatch.setattr(image.os, "geteuid", lambda: 1000 if lacking == "root" else 0)
    code, said = image_build(capfd)
    assert code == 2
    assert "none is here" in said and all(way in said for way in WAYS_OUT)
    assert ("not root" if lacking == "root" else "debootstrap is not installed") in said
    assert "localhost:1" in said  # the engine's own reason for the failed pull


def test_a_failing_make_base_image_is_told_with_the_two_ways_out(
        engine, no_bases, monkeypatch, capfd, tmp_path):
    fake = tmp_path / "debootstrap"  # the real script runs it, as it would the real one
    fake.write_text("#!/bin/sh\necho 'E: the test mirror does not answer' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{path_without('debootstrap')}")
    monkeypatch.setattr(image.os, "geteuid", lambda: 0)
    code, said = image_build(capfd)
    assert code == 2 and all(way in said for way in WAYS_OUT)
    # Where apt has no Debian mirror the script stops before debootstrap, and says so.
    assert ("make-base-image failed: E: the test mirror does not answer" in said
            or "make-base-image failed: no Debian mirror found" in said)


def test_a_named_base_that_is_absent_is_told_with_the_two_ways_out(engine, capfd):
    code, said = image_build(capfd, "--base", NO_REGISTRY)
    assert code == 2
    assert f"The base image {NO_REGISTRY} is not here" in said
    assert all(way in said for way in WAYS_OUT)


@pytest.fixture
def no_wheels(monkeypatch):
    """An empty wheelhouse: these builds fail before the wheels are used, with no download."""
    monkeypatch.setattr(image, "wheelhouse", lambda folder, *args: folder.mkdir())


@pytest.fixture
def empty_base(engine):
    """An image with no files at all: no shell, no Python. Removed afterwards, with
    the layers a failed build left on it (they carry its label)."""
    name = f"minimax-grader-test-empty:{os.getpid()}"
    label = f"{TEST_LABEL}={uuid.uuid4().hex}"
    engine.images.build(fileobj=io.BytesIO(f"FROM scratch\nLABEL {label}\n".encode()),
                        tag=name, rm=True, forcerm=True)
    yield name
    left = engine.api.images(all=True, filters={"label": label})
    while left:  # children first: an image with a child can't be removed
        parents = {entry["ParentId"] for entry in left}
        for entry in left:
            if entry["Id"] not in parents:
                engine.images.remove(entry["Id"], force=True)
        left = engine.api.images(all=True, filters={"label": label})


def test_a_base_without_python_is_told_with_the_step_that_failed(engine, empty_base, no_wheels,
                                                                capfd):
    code, said = image_build(capfd, "--base", empty_base)
    assert code == 2
    assert f"Building {TAG} on {empty_base} failed at `Step" in said
    assert "RUN python3 -m pip install" in said and "/bin/sh" in said  # the engine's reason
    assert "--base python:3.11-slim" in said and "debootstrap" in said


def test_a_base_that_vanishes_during_the_build_is_told_with_the_two_ways_out(
        engine, no_wheels, monkeypatch, capfd):
    monkeypatch.setattr(image, "pick_base", lambda client, base: NO_REGISTRY)
    code, said = image_build(capfd)
    assert code == 2
    assert f"The base image {NO_REGISTRY} is not here" in said
    assert all(way in said for way in WAYS_OUT)


def test_a_tag_the_engine_refuses_is_told_in_one_paragraph(engine, capfd):
    code, said = image_build(capfd, tag="Not A Tag")
    assert code == 2
    assert "the Docker engine refused" in said and "invalid reference format" in said


def test_a_build_beside_another_waits_for_it_and_takes_its_image(docker_client):
    """Two builds at once (a test session's and a user's) would both make the
    base and tag over each other: the second waits, then finds the image made."""
    said, built = [], []
    waiter = threading.Thread(target=lambda: built.append(
        image.build(docker_client, force=False, say=said.append)))
    with image.one_build_at_a_time(print):  # the other build, running
        waiter.start()
        for _ in range(600):  # until the waiter says it waits (60 s at most)
            if said or not waiter.is_alive():
                break
            time.sleep(0.1)
        assert waiter.is_alive() and not built, "a second build ran beside the first"
    waiter.join(timeout=120)
    assert said[0].startswith("another build of the grading image is running here")
    assert said[-1] == f"the other build made {image.default_tag()}, up to date"
    assert built[0][0].id == docker_client.images.get(image.default_tag()).id


@pytest.fixture
def package_copy(tmp_path):
    """A copy of the package's files and of the exercises, to edit: (the package's
    folder, the exercises')."""
    copy = tmp_path / "grader"
    shutil.copytree(image.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(places.EXERCISES, tmp_path / "exercises",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return copy, tmp_path / "exercises"


def retitle_and_repoint(toml):
    """exercise.toml with its first test's points and title changed, as an instructor would."""
    text = toml.read_text(encoding="utf-8")
    changed = re.sub(r"points = \d+", "points = 7", text, count=1)
    changed = re.sub(r'(\[\[tests\]\]\nname = "\w+"\ntitle = )"[^"]*"', r'\1"Renamed"', changed,
                     count=1)
    assert changed.count("points = 7") == 1 and '"Renamed"' in changed, text
    toml.write_text(changed, encoding="utf-8")


def test_points_titles_and_suites_are_not_in_the_image(package_copy):
    package, root = package_copy
    assert image.contents_hash(package) == image.contents_hash()
    assert installs.judge_hash(package, root) == installs.judge_hash()
    retitle_and_repoint(root / "helpers" / "exercise.toml")
    assert installs.judge_hash(package, root) == installs.judge_hash()  # the judge's files
    assert exercises.facts_hash(root) != exercises.facts_hash()  # the host's facts changed
    suite = root / "helpers" / "suite" / "test_helpers.py"
    suite.write_text(suite.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert installs.judge_hash(package, root) != installs.judge_hash()  # what the judge runs
    assert image.contents_hash(package) == image.contents_hash()  # the image stays fresh
    worker = package / "harness" / "runtime" / "worker.py"
    worker.write_text(worker.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert image.contents_hash(package) != image.contents_hash()  # what the image holds


def test_the_agent_s_opponents_and_points_are_the_host_s_facts(package_copy):
    package, root = package_copy
    before = exercises.facts_hash(root)
    toml = root / "agent" / "match.toml"
    edited = toml.read_text(encoding="utf-8").replace("points = 5", "points = 6")
    assert edited != toml.read_text(encoding="utf-8")
    toml.write_text(edited, encoding="utf-8")
    assert exercises.facts_hash(root) != before  # the service grades it anew
    assert installs.judge_hash(package, root) == installs.judge_hash()  # the judge's files
    assert image.contents_hash(package) == image.contents_hash()  # the image stays


# Run in the image: the files under its home (bytecode aside), and which packages it has.
LOOK_INSIDE = """import importlib.util, json, os
top = "/opt/minimax-grader"
files = sorted(os.path.relpath(os.path.join(folder, name), top)
               for folder, _, names in os.walk(top) for name in names if not name.endswith(".pyc"))
print(json.dumps({"files": files, "packages": {name: importlib.util.find_spec(name) is not None
                  for name in ("pytest", "_pytest", "pytest_timeout", "hypothesis", "numpy")}}))
"""


def test_the_image_holds_what_the_launcher_runs_and_nothing_of_the_judge(docker_client):
    """The judge runs on the host: no pytest, no hypothesis, no suite, no reference
    search in the image; what it holds is the launcher's files, as its hash says."""
    said = docker_client.containers.run(
        image.default_tag(), entrypoint=["python3", "-I", "-B", "-c", LOOK_INSIDE],
        network_mode="none", remove=True)
    found = json.loads(said)
    assert found["files"] == sorted(name for name, _ in image.context_files()
                                    if name.startswith("grader/"))
    assert "grader/harness/runtime/worker.py" in found["files"]
    assert not [name for name in found["files"] if "suite" in name or "checks" in name]
    assert found["packages"] == {"pytest": False, "_pytest": False, "pytest_timeout": False,
                                 "hypothesis": False, "numpy": True}


def test_the_image_holds_no_reference_solution_nor_corpus():
    answers = [path for path in places.SOLUTIONS.rglob("*") if path.is_file()]
    assert answers  # the checkout's
    held = image.context_files()
    assert not [path for _, path in held if path.is_relative_to(places.SOLUTIONS)]
    secrets = {path.read_bytes() for path in answers if path.stat().st_size > 64}
    assert not [name for name, path in held if path.read_bytes() in secrets]


def test_an_added_exercise_s_suite_is_the_judge_s_not_the_image_s(tmp_path, monkeypatch):
    monkeypatch.setenv(exercises.ADDED, "")
    shutil.copytree(exercises.ROOT / "helpers", tmp_path / "my_helpers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    before, judged_before = image.contents_hash(), installs.judge_hash()
    exercises.add(tmp_path)
    held = dict(installs.judge_files())
    suite = "exercises/my_helpers/suite/test_helpers.py"
    assert held[suite] == tmp_path / "my_helpers" / "suite" / "test_helpers.py"
    assert not [name for name in held if name.startswith("exercises/my_helpers/")
                and name != suite]  # neither its solution nor its corpus
    assert installs.judge_hash() != judged_before  # another grader's version
    assert image.contents_hash() == before  # the same image
    assert not [name for name, _ in image.context_files() if name.startswith("exercises/")]


def edited_helpers(root):
    """The helpers exercise as the host reads it from ``root``'s edited exercise.toml,
    whose suite is the installed one (the image's)."""
    retitle_and_repoint(root / "helpers" / "exercise.toml")
    return dataclasses.replace(exercises.load("helpers", root),
                               folder=exercises.ROOT / "helpers")


def test_the_report_shows_points_edited_in_exercise_toml(package_copy):
    made = grade_with(edited_helpers(package_copy[1]), LocalSandbox())
    first = made["tests"][0]
    assert (first["title"], first["score"], first["max_score"]) == ("Renamed", 7, 7)
    assert made["score"] == made["max_score"] == exercises.load("helpers").max_score + 7 - 3


def test_points_edited_need_no_new_image(package_copy, docker_client):
    edited = edited_helpers(package_copy[1])
    assert image.problem(docker_client) is None
    made = grade_with(edited, DockerSandbox(docker_client))
    assert made["sandbox"]["backend"] == "docker"
    assert (made["tests"][0]["max_score"], made["score"]) == (7, made["max_score"])


def grade_with(exercise, sandbox):
    return grading.grade(exercise, solution("helpers"), sandbox, exercise.limits)


@pytest.fixture
def labelled(engine):
    """labelled(tag, contents): an empty image with the grader's label, removed afterwards."""
    made = []

    def build(tag, contents="0" * 16):
        engine.images.build(fileobj=io.BytesIO(
            f"FROM scratch\nLABEL {image.HASH_LABEL}={contents}\n".encode()), tag=tag, rm=True)
        made.append(tag)
        return tag

    yield build
    for tag in made:
        try:
            engine.images.remove(tag, force=True)
        except ImageNotFound:  # pruned by the test
            pass


def test_image_build_lists_the_other_grading_images_and_prunes_those_unused(
        engine, labelled, capfd):
    repository = f"minimax-grader-test-prune-{uuid.uuid4().hex[:8]}"
    keep = labelled(f"{repository}:current", image.contents_hash())
    old, used = labelled(f"{repository}:old"), labelled(f"{repository}:used", "1" * 16)
    engine.images.build(fileobj=io.BytesIO(b"FROM scratch\nLABEL x=1\n"),
                        tag=f"{repository}:unlabelled", rm=True)  # not a grading image
    container = engine.containers.create(used, command=["none"])
    try:
        assert image.others(engine, keep) == [old, used]
        assert cli.main(["image", "build", "--tag", keep]) == 0
        said = capfd.readouterr().out
        assert f"{keep} is up to date" in said and f"--prune removes them): {old}, {used}" in said
        assert cli.main(["image", "build", "--tag", keep, "--prune"]) == 0
        said = capfd.readouterr().out
        assert f"removed 1 other grading image(s)\n  {old}\n" in said
        assert f"kept {used} (" in said  # a container uses it
        assert image.others(engine, keep) == [used]
        assert image.present(engine, keep) and image.present(engine, f"{repository}:unlabelled")
    finally:
        container.remove(force=True)
        engine.images.remove(f"{repository}:unlabelled", force=True)


def test_the_default_tag_names_what_the_image_holds(package_copy, monkeypatch):
    monkeypatch.delenv("MINIMAX_GRADER_IMAGE", raising=False)
    assert image.default_tag() == f"minimax-grader:{__version__}-{image.contents_hash()}"
    package, _ = package_copy
    (package / "harness" / "runtime" / "spawn.py").write_text("# another checkout\n")
    assert image.contents_hash(package) != image.contents_hash()  # another tag: no fight
    monkeypatch.setenv("MINIMAX_GRADER_IMAGE", "registry.example/grader:7")
    assert image.default_tag() == "registry.example/grader:7"


def test_an_image_whose_label_is_another_hash_is_stale(engine, labelled):
    tag = labelled(f"minimax-grader-test-stale-{uuid.uuid4().hex[:8]}:x", "0" * 16)
    assert "is older than the launcher it should hold" in image.problem(engine, tag)
    assert "minimax-grader image build" in image.problem(engine, tag)
