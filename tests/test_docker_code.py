"""The grading image's Python folders served from volumes (grader.sandbox.docker_code):
the volumes hold exactly the image's files, owners and modes; gradings mount
them read-only; a new image is graded from its layers until its set is whole;
two makers at once make one set; a set whose image is gone is pruned."""

import io
import json
import threading
import time
import uuid

import pytest
from conftest import solution

from grader import exercises, grading, image
from grader.sandbox import docker_code
from grader.sandbox.containers import labels
from grader.sandbox.docker import DockerSandbox

pytestmark = pytest.mark.timeout(600)

# Every file's path, mode, owners and bytes under the folders, and each folder's own.
DIGEST = """import hashlib, json, os, sys
h = hashlib.sha256()
for top in json.loads(sys.argv[1]):
    st = os.stat(top)
    h.update(f"{top} {st.st_mode} {st.st_uid} {st.st_gid}".encode())
    for root, folders, files in os.walk(top):
        folders.sort()
        for name in sorted(folders + files):
            path = os.path.join(root, name)
            st = os.lstat(path)
            h.update(f"{path} {st.st_mode} {st.st_uid} {st.st_gid} {st.st_size}".encode())
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    h.update(f.read())
print(h.hexdigest())
"""


def digest(client, tag, folders, mounts=()):
    return client.containers.run(
        tag, entrypoint=["python3", "-I", "-B", "-c", DIGEST, json.dumps(folders)],
        network_mode="none", mounts=list(mounts), remove=True).decode().strip()


def volumes_of(client, image_id):
    return sorted(v.name for v in client.volumes.list(filters={"label": docker_code.LABEL})
                  if v.attrs["Labels"][docker_code.LABEL] == image_id)


@pytest.fixture
def derived(docker_client):
    """An image of its own (the grading image plus a label): no set of volumes yet."""
    tag = f"minimax-grader-test-code:{uuid.uuid4().hex[:8]}"
    base = docker_client.images.get(image.default_tag()).id  # never pulled from a registry
    docker_client.images.build(fileobj=io.BytesIO(
        f"FROM {base}\nLABEL test={tag}\n".encode()), tag=tag, rm=True)
    yield tag
    if image.present(docker_client, tag):  # the test removes it to prune
        docker_client.images.remove(tag, force=True)
    docker_code.prune(docker_client)


def test_the_volumes_hold_the_images_folders_and_gradings_mount_them_read_only(docker_client):
    tag = image.default_tag()
    folders = docker_code.ensure(docker_client, tag, labels())
    assert docker_code.HARNESS in folders and any("python3" in f for f in folders)
    box = DockerSandbox(docker_client)
    mounts = box._code()
    assert [m["Target"] for m in mounts] == folders and all(m["ReadOnly"] for m in mounts)
    assert digest(docker_client, tag, folders, mounts) == digest(docker_client, tag, folders)

    helpers = exercises.load("helpers")
    running = box._started(helpers, helpers.limits)
    try:
        held = {m["Destination"]: m for m in running.container.attrs["Mounts"]}
        assert all(held[f]["Type"] == "volume" and not held[f]["RW"] for f in folders)
    finally:
        box._discard(running)
    report = grading.grade(helpers, solution("helpers"), box, helpers.limits)
    assert report["score"] == report["max_score"]


def test_a_new_image_reads_its_layers_until_one_whole_set_is_made_then_pruned_with_it(
        docker_client, derived):
    image_id = docker_client.images.get(derived).id
    # It never waits: it starts a maker, and the image's layers are read meanwhile.
    assert docker_code.mounts(docker_client, derived, labels()) == []
    beside: list = []
    second = threading.Thread(target=lambda: beside.append(
        docker_code.ensure(docker_client, derived, labels())))
    second.start()  # a second maker at once (another process's, say): waits for the first
    second.join(300)
    ends = time.monotonic() + 300
    while docker_code.folders(docker_client, image_id) is None:
        assert time.monotonic() < ends, "the set was not made"
        time.sleep(0.5)
    folders = docker_code.folders(docker_client, image_id)
    assert beside == [folders]
    assert len(volumes_of(docker_client, image_id)) == len(folders) + 1  # one set and its marker
    mounts = docker_code.mounts(docker_client, derived, labels())
    assert digest(docker_client, derived, folders, mounts) == digest(docker_client, derived,
                                                                      folders)

    kept = volumes_of(docker_client, docker_client.images.get(image.default_tag()).id)
    docker_client.images.remove(derived, force=True)
    assert docker_code.prune(docker_client) >= len(folders) + 1
    assert volumes_of(docker_client, image_id) == []
    assert volumes_of(docker_client, docker_client.images.get(image.default_tag()).id) == kept


def test_an_image_without_python_gets_no_volumes(docker_client):
    tag = f"minimax-grader-test-code:{uuid.uuid4().hex[:8]}"
    docker_client.images.build(fileobj=io.BytesIO(b"FROM scratch\nLABEL x=1\n"), tag=tag,
                               rm=True)
    try:
        assert docker_code.ensure(docker_client, tag, labels()) is None
        assert volumes_of(docker_client, docker_client.images.get(tag).id) == []
    finally:
        docker_client.images.remove(tag, force=True)
        docker_code.prune(docker_client)
