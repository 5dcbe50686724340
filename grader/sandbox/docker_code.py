"""The grading image's Python trees, served to its containers from volumes.

Every grading starts two interpreters in a fresh container, and they import
a few hundred modules: the standard library, pytest, the harness. Where the
engine's storage driver serves image layers slowly (fuse-overlayfs, as with
rootless Docker, costs a round trip to a user-space daemon for every lookup
and open), those imports took as long again as their CPU. So each image's
Python trees (its interpreter's library folders and the harness) are copied
once into volumes of its own, by the engine itself, and its containers mount
them read-only at the same paths: the same files, owners and modes, served
by the engine's host file system.

A set is made at most once an image (the volumes are named by the image's
id, so a rebuilt image gets new ones) and is used only once a marker volume
says it is whole, whose labels name the folders. Until then a container
reads the image's layers, as it would without volumes: ``mounts`` never
waits for a copy (``ensure`` makes one at once: ``image build`` calls it).
"""

from __future__ import annotations

import fcntl
import json
import threading
from typing import TYPE_CHECKING, Any

from grader.contracts import places

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.types import Mount

LABEL = "minimax-grader.code"  # every volume of a set: the image's id
FOLDERS_LABEL = "minimax-grader.code.folders"  # the marker's: the folders, as JSON
HARNESS = places.IMAGE_HOME
# The interpreter's own folders on its path, and those of its site packages
# (a folder inside another is served by the outer one).
FOLDERS = f"""import json, os, site, sysconfig
paths = sysconfig.get_paths()
found = {{paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib")}}
found = sorted(p for p in found | set(site.getsitepackages()) | {{{HARNESS!r}}} if os.path.isdir(p))
print(json.dumps([p for p in found if not any(p.startswith(q + "/") for q in found)]))
"""

_made: set[str] = set()  # image ids whose set this process has started making
_lock = threading.Lock()


def _name(image_id: str, index: int | None = None) -> str:
    short = image_id.removeprefix("sha256:")[:16]
    return f"minimax-grader-code-{short}" + ("-ready" if index is None else f"-{index}")


def folders(client: DockerClient, image_id: str) -> list[str] | None:
    """The folders served by the image's set of volumes, or None while it has none."""
    from docker.errors import NotFound

    try:
        marker = client.volumes.get(_name(image_id))
    except NotFound:
        return None
    found: list[str] = json.loads(marker.attrs["Labels"][FOLDERS_LABEL])
    return found


def mounts(client: DockerClient, image: str, labels: dict[str, str]) -> list[Mount]:
    """The read-only mounts of ``image``'s volumes for a grading container; none
    (the image's layers) while its set is not whole, whose making this starts
    in the background the first time (its containers labelled ``labels``)."""
    from docker.types import Mount

    image_id = _id(client, image)
    served = folders(client, image_id)
    if served is None:
        with _lock:
            first = image_id not in _made
            _made.add(image_id)
        if first:
            threading.Thread(target=ensure, args=(client, image_id, labels), daemon=True).start()
        return []
    return [Mount(folder, _name(image_id, index), type="volume", read_only=True, no_copy=True)
            for index, folder in enumerate(served)]


def _id(client: DockerClient, image: str) -> str:
    return str(client.images.get(image).id)


def ensure(client: DockerClient, image: str, labels: dict[str, str]) -> list[str] | None:
    """Make the set of volumes of ``image`` (a name or an id) where it has none,
    with containers labelled ``labels`` (the sandbox's: a dead maker's are
    swept). The folders it serves, or None where the engine failed (its
    containers then read the layers: a slower grading, never a wrong one).

    One maker at a time on this machine (a lock file beside the image build's):
    the engine copies an image's folder into an empty volume when a container
    first mounts it, and two copies at once into one volume would let a
    grading read a file the other is rewriting."""
    from docker.errors import DockerException
    from requests.exceptions import RequestException

    from grader.image import cache_folder

    with open(cache_folder() / "code-volumes.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            image_id = _id(client, image)
            return folders(client, image_id) or _make(client, image_id, labels)
        except (DockerException, RequestException, ValueError):
            return None


def _make(client: DockerClient, image_id: str, labels: dict[str, str]) -> list[str]:
    from docker.types import Mount

    served: list[str] = json.loads(_python(client, image_id, FOLDERS, labels))
    for index in range(len(served)):  # left over from a maker that died: made again
        _remove(client, _name(image_id, index))
        client.volumes.create(_name(image_id, index), labels={LABEL: image_id})
    # Mounted writable, so that the engine copies the image's folders in.
    _python(client, image_id, "pass", labels, mounts=[
        Mount(folder, _name(image_id, index), type="volume")
        for index, folder in enumerate(served)])
    client.volumes.create(_name(image_id), labels={LABEL: image_id,
                                                   FOLDERS_LABEL: json.dumps(served)})
    return served


def _python(client: DockerClient, image_id: str, code: str, labels: dict[str, str],
            **options: Any) -> str:
    """What ``python3 -c code`` prints in a container of the image, with no network;
    the container is removed in every path."""
    from docker.errors import ContainerError

    container = client.containers.create(
        image_id, entrypoint=["python3", "-I", "-B", "-c", code], network_mode="none",
        labels=labels, **options)
    try:
        container.start()
        status = container.wait(timeout=120)["StatusCode"]
        output: bytes = container.logs(stdout=True, stderr=False)
        if status != 0:
            raise ContainerError(container, status, code, image_id, output.decode())
    finally:
        container.remove(force=True)
    return output.decode()


def _remove(client: DockerClient, name: str) -> bool:
    from docker.errors import APIError, NotFound

    try:
        client.volumes.get(name).remove()
    except NotFound:
        return True
    except APIError:  # in use by a container
        return False
    return True


def prune(client: DockerClient) -> int:
    """Remove the sets of volumes whose image is gone (a volume a container
    still uses stays, for the next prune); how many volumes went."""
    present = {found.id for found in client.images.list(all=True)}
    gone = [v for v in client.volumes.list(filters={"label": LABEL})
            if v.attrs["Labels"][LABEL] not in present]
    # Each set's marker first: a set without it is never mounted.
    gone.sort(key=lambda volume: not volume.name.endswith("-ready"))
    return sum(_remove(client, volume.name) for volume in gone)
