"""Building the grading image, with no registry and no network in the build.

The build context is staged from the installed package: the Dockerfile and
the script that installs the harness (both in ``grader/data/image/``), the
harness, the exercises' suites and a wheelhouse of pytest and
pytest-timeout downloaded on the host. The image
is labelled with a hash of what it holds, so that an image older than the
harness is noticed instead of used.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grader import resources
from grader.sandbox.docker import IMAGE

PACKAGE = resources.package()
BASE = "minimax-grader-base:bookworm"
REGISTRY_BASE = "python:3.11-slim"
HASH_LABEL = "minimax-grader.contents"
REQUIREMENTS = ["pytest>=7.2", "pytest-timeout>=2.1"]
INSTALL = "install-harness"  # the harness's users and permissions


def _sources(paths):
    return [p for p in paths if "__pycache__" not in p.parts]


def harness_files(package: Path = PACKAGE) -> list[Path]:
    """The harness, what runs in a sandbox: paths in the installed package."""
    return _sources([package / "__init__.py", *sorted((package / "harness").rglob("*.py"))])


def suite_files(folder: Path) -> list[Path]:
    """An exercise's ``exercise.toml`` and suite: paths in the installed package."""
    return _sources([folder / "exercise.toml", *sorted((folder / "suite").rglob("*.py"))])


def in_package(path: Path, package: Path = PACKAGE) -> str:
    """``path``'s name where the package's copy lies: ``grader/harness/wire.py``."""
    return f"grader/{path.relative_to(package).as_posix()}"


def context_files(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    """(path in the context, path in the package) of what the image holds."""
    sources = harness_files(package)
    for exercise in sorted((package / "data" / "exercises").iterdir()):
        sources += suite_files(exercise)
    scripts = package / "data" / "image"
    return [("Dockerfile", scripts / "Dockerfile"), (INSTALL, scripts / INSTALL),
            *((in_package(p, package), p) for p in sources)]


def contents_hash(package: Path = PACKAGE) -> str:
    digest = hashlib.sha256()
    for name, path in context_files(package):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def stage(target: Path) -> None:
    """Copy the context into ``target`` and download the wheelhouse there."""
    for name, path in context_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / name)
    wheelhouse(target / "wheelhouse")


class WheelhouseError(Exception):
    """pip could not download the wheels (no package index reachable?)."""


class NoBase(Exception):
    """No base image is here, none can be made, and none can be pulled."""


NO_BASE = (f"The grading image needs a base image, and none is here: {REGISTRY_BASE} could "
           "not be pulled (no registry answers?) and the Debian-made base can't be made "
           "here ({why}). Two ways out: with a registry, `minimax-grader image build --base "
           f"{REGISTRY_BASE}`; without one, run as root with Debian's debootstrap installed "
           "(apt-get install debootstrap), and `minimax-grader image build` makes the base "
           "itself.")


def wheelhouse(folder, requirements=REQUIREMENTS):
    """Download wheels of ``requirements``, and of what they need, into ``folder``:
    for this machine's Python and platform, to install later with no network."""
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                        "--only-binary=:all:", "--dest", str(folder), *requirements], check=True)
    except subprocess.CalledProcessError:
        raise WheelhouseError("pip could not download the wheels of "
                              f"{', '.join(requirements)}: is the package index reachable?") \
            from None


def pick_base(client, base):
    """``auto``: python:3.11-slim or the Debian-made base if either is here; else the
    Debian-made base where it can be made (root and debootstrap), else python:3.11-slim
    pulled from a registry; raise NoBase, which says what to do, when that fails too."""
    from docker.errors import DockerException, ImageNotFound

    if base != "auto":
        return base
    for candidate in (REGISTRY_BASE, BASE):
        try:
            client.images.get(candidate)
            return candidate
        except ImageNotFound:
            pass
    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        try:
            client.images.pull(REGISTRY_BASE)
        except DockerException:
            why = "not root" if os.geteuid() != 0 else "debootstrap is not installed"
            raise NoBase(NO_BASE.format(why=why)) from None
        return REGISTRY_BASE
    subprocess.run(["bash", str(resources.data("image", "make-base-image")), BASE], check=True)
    return BASE


def build(client, base="auto", tag=IMAGE, say=print):
    """Build the grading image; (the image, seconds taken)."""
    started = time.monotonic()
    base = pick_base(client, base)
    say(f"building {tag} on {base} ...")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-image-") as folder:
        stage(Path(folder))
        image, _ = client.images.build(path=folder, tag=tag, buildargs={"BASE_IMAGE": base},
                                       labels={HASH_LABEL: contents_hash()}, rm=True,
                                       forcerm=True)
    return image, time.monotonic() - started


def problem(client, tag=IMAGE):
    """Why the grading image can't be used (missing, out of date), or None."""
    from docker.errors import ImageNotFound

    try:
        image = client.images.get(tag)
    except ImageNotFound:
        return f"the grading image {tag} is missing; build it with: minimax-grader image build"
    if image.labels.get(HASH_LABEL) != contents_hash():
        return (f"the grading image {tag} is older than the harness or the suites; "
                "rebuild it with: minimax-grader image build")
    return None
