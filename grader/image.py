"""Building the grading image, with no registry and no network in the build.

The image holds what a grading container runs: the launcher and the student's
workers (``installs.launcher_files``), Python and NumPy (for agents); the
judge runs on the host, so no pytest, no suite and no reference is in it.
The build context is staged from the project's top level (``places``): the
Dockerfile, the script that installs the harness (``grader/data/image/``),
those files, an instructor's games' rules (the launcher hands them out) and
a wheelhouse of ``REQUIREMENTS`` downloaded on the host. The image is tagged
and labelled with a hash of what it holds, so that two checkouts on one
machine each have their own, and an image older than its files is noticed
instead of used.
"""

import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from grader import __version__, installs
from grader.contracts import places, provided

if TYPE_CHECKING:  # docker is imported where it is used: the package runs without it
    from docker import DockerClient
    from docker.errors import BuildError
    from docker.models.images import Image

PACKAGE = places.PACKAGE
REPOSITORY = "minimax-grader"
BASE = "minimax-grader-base:bookworm"
REGISTRY_BASE = "python:3.11-slim"
HASH_LABEL = "minimax-grader.contents"
# NumPy, pinned, for the agent exercise: agents of the course project import it.
NUMPY = "numpy==2.4.6"
REQUIREMENTS = [NUMPY]  # the wheelhouse's: the Dockerfile installs every wheel in it


def context_files(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    """(path in the context, path here) of what the image holds, laid out as a
    checkout: the launcher's files of ``package`` and an instructor's games'
    rules beside the built-in games'. Never a suite, never ``solutions/``."""
    found = [("Dockerfile", places.DOCKERFILE),
             (installs.INSTALL, places.IMAGE_SCRIPTS / installs.INSTALL)]
    found += [(f"grader/{p.relative_to(package).as_posix()}", p)
              for p in installs.launcher_files(package)]
    return found + installs.added_games(lambda folder: [folder / provided.RULES])


def contents_hash(package: Path = PACKAGE) -> str:
    """A hash of what the image holds: its files and its wheels' requirements."""
    return installs.digest(context_files(package), *REQUIREMENTS)


def default_tag() -> str:
    """The tag the Docker sandbox runs: this checkout's, which follows what the image
    holds (asked each time: a checkout edited meanwhile needs its new image). The
    environment's MINIMAX_GRADER_IMAGE names another (an image copied from a
    registry, say: its label must match)."""
    return (os.environ.get("MINIMAX_GRADER_IMAGE")
            or f"{REPOSITORY}:{__version__}-{contents_hash()}")


def stage(target: Path) -> None:
    """Copy the context into ``target`` and download the wheelhouse there."""
    for name, path in context_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / name)
    wheelhouse(target / "wheelhouse")


class WheelhouseError(Exception):
    """pip could not download the wheels (no package index reachable?)."""


class NoEngine(Exception):
    """No Docker engine answers here."""


def connect() -> "DockerClient":
    """A client for a Docker engine that answers, or NoEngine saying why."""
    try:
        import docker

        client = docker.from_env(timeout=30)
        client.ping()
        return client
    except Exception as exc:
        raise NoEngine(f"no Docker engine answers ({exc.__class__.__name__}); start Docker, "
                       "or grade with --sandbox local") from None


class BuildFailed(Exception):
    """The grading image can't be built here: the message says why and what to do."""


class NoBase(BuildFailed):
    """No base image is here, none can be made, and none can be pulled."""


WAYS_OUT = (f"Two ways out: with a registry, `minimax-grader image build --base {REGISTRY_BASE}`; "
            "without one, run as root with Debian's debootstrap installed (apt-get install "
            "debootstrap), and `minimax-grader image build` makes the base itself.")
NO_BASE = (f"The grading image needs a base image, and none is here: {REGISTRY_BASE} could "
           "not be pulled ({pulled}) and the Debian-made base can't be made here ({why}). "
           + WAYS_OUT)
NOT_HERE = ("The base image {base} is not here and could not be pulled ({pulled}). "
            + WAYS_OUT)
# Where a build of the image fails once its base is there, the base is the likely cause.
BAD_BUILD = ("Building {tag} on {base} failed at {step}: {error}. The grading image needs a "
             f"base with python3 and pip: {REGISTRY_BASE} (`--base {REGISTRY_BASE}`, with a "
             "registry) or the Debian-made base (`--base auto`, as root with debootstrap).")


def wheelhouse(folder: Path, requirements: Sequence[str] = REQUIREMENTS) -> None:
    """Download wheels of ``requirements``, and of what they need, into ``folder``:
    for this machine's Python and platform, to install later with no network."""
    if importlib.util.find_spec("pip") is None:  # a venv made without pip (uv, --without-pip)
        raise WheelhouseError(f"pip is not installed for {sys.executable}, which runs the "
                              "grader: install it there (python -m ensurepip) and try again")
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet",
                        "--only-binary=:all:", "--dest", str(folder), *requirements], check=True)
    except subprocess.CalledProcessError:
        raise WheelhouseError("pip could not download the wheels of "
                              f"{', '.join(requirements)}: is the package index reachable?") \
            from None


def said(exc: Exception) -> str:
    """The engine's own words for a failure, without docker-py's HTTP preamble."""
    return str(getattr(exc, "explanation", None) or getattr(exc, "msg", None) or exc).strip()


def present(client: "DockerClient", name: str) -> bool:
    """Whether the image ``name`` is on the engine."""
    from docker.errors import DockerException

    try:
        client.images.get(name)
    except DockerException:  # not here, or not a name: a pull says which
        return False
    return True


def _pull(client: "DockerClient", name: str) -> str | None:
    """Pull ``name`` from its registry: None when pulled, else the engine's reason."""
    from docker.errors import DockerException

    try:
        client.images.pull(name)
    except DockerException as exc:
        return said(exc)
    return None


def make_base() -> str | None:
    """Make the Debian-made base with make-base-image: None when made, else why not."""
    if os.geteuid() != 0:
        return "not root"
    if not shutil.which("debootstrap"):
        return "debootstrap is not installed"
    # Its progress goes to the terminal; its errors are kept for the message.
    done = subprocess.run(["bash", str(places.IMAGE_SCRIPTS / "make-base-image"), BASE],
                          stderr=subprocess.PIPE, text=True, errors="replace")
    if done.returncode == 0:
        return None
    errors = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    return f"make-base-image failed: {errors[-1] if errors else f'exit status {done.returncode}'}"


def pick_base(client: "DockerClient", base: str) -> str:
    """The base to build on. A named one must be here or be pulled. ``auto``:
    python:3.11-slim or the Debian-made base if either is here; else the
    Debian-made base where it can be made (root and debootstrap), else
    python:3.11-slim pulled from a registry. NoBase, which says what to do,
    when none can be had."""
    if base != "auto":
        pulled = None if present(client, base) else _pull(client, base)
        if pulled:
            raise NoBase(NOT_HERE.format(base=base, pulled=pulled))
        return base
    for candidate in (REGISTRY_BASE, BASE):
        if present(client, candidate):
            return candidate
    why = make_base()
    if why is None:
        return BASE
    pulled = _pull(client, REGISTRY_BASE)
    if pulled:
        raise NoBase(NO_BASE.format(pulled=pulled, why=why))
    return REGISTRY_BASE


def _failed_step(exc: "BuildError") -> str:
    """The build's last step (``Step 4/9 : RUN ...``) from a BuildError's log."""
    steps = [" ".join(entry["stream"].split()) for entry in exc.build_log
             if entry.get("stream", "").startswith("Step ")]
    return steps[-1] if steps else "its start"


def _build_failure(exc: "BuildError", tag: str, base: str) -> str:
    step = _failed_step(exc)
    if step.partition(" : ")[2].startswith("FROM"):  # the base went missing after all
        return NOT_HERE.format(base=base, pulled=said(exc))
    return BAD_BUILD.format(tag=tag, base=base, step=f"`{step}`", error=said(exc))


def cache_folder() -> Path:
    """This user's cache folder for the grader (its lock files), made if need be."""
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "minimax-grader"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def one_build_at_a_time(say: Callable[[str], object]) -> Iterator[bool]:
    """Held for a whole build, so that two builds on this machine (a test session
    beside a user's, two terminals) don't both make the base and tag over each
    other. Yields whether it had to wait for another build."""
    with open(cache_folder() / "image-build.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("another build of the grading image is running here; waiting for it ...")
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield True
        else:
            yield False


def build(client: "DockerClient", base: str = "auto", tag: str | None = None,
          say: Callable[[str], object] = print, force: bool = True) -> tuple["Image", float]:
    """Build the grading image; (the image, seconds taken). BuildFailed, whose
    message says why and what to do, where it can't be built here.

    Unless ``force``, an image that another build made up to date while this
    one waited for it is taken as it is. ``tag``: this checkout's by default."""
    tag = tag or default_tag()
    started = time.monotonic()
    with one_build_at_a_time(say) as waited:
        if waited and not force and base == "auto" and not problem(client, tag):
            say(f"the other build made {tag}, up to date")
            return client.images.get(tag), time.monotonic() - started
        return _build(client, base, tag, say), time.monotonic() - started


def _build(client: "DockerClient", base: str, tag: str, say: Callable[[str], object]) -> "Image":
    from docker.errors import BuildError, DockerException

    base = pick_base(client, base)
    say(f"building {tag} on {base} ...")
    with tempfile.TemporaryDirectory(prefix="minimax-grader-image-") as folder:
        stage(Path(folder))
        try:
            image, _ = client.images.build(path=folder, tag=tag, buildargs={"BASE_IMAGE": base},
                                           labels={HASH_LABEL: contents_hash()}, rm=True,
                                           forcerm=True)
        except BuildError as exc:
            raise BuildFailed(_build_failure(exc, tag, base)) from None
        except (DockerException, OSError) as exc:  # the engine refused or went away
            raise BuildFailed(f"The Docker engine could not build {tag} on {base}: "
                              f"{said(exc)}.") from None
    return image


def problem(client: "DockerClient", tag: str | None = None) -> str | None:
    """Why the grading image ``tag`` (this checkout's by default) can't be used
    (missing, out of date), or None."""
    from docker.errors import ImageNotFound

    tag = tag or default_tag()
    try:
        image = client.images.get(tag)
    except ImageNotFound:
        return f"the grading image {tag} is missing; build it with: minimax-grader image build"
    if image.labels.get(HASH_LABEL) != contents_hash():
        return (f"the grading image {tag} is older than the launcher it should hold; "
                "rebuild it with: minimax-grader image build")
    return None


def others(client: "DockerClient", keep: str) -> list[str]:
    """The tags of the other grading images here: those of ``keep``'s repository
    that carry the grader's label (older versions, another checkout's)."""
    repository = keep.rpartition(":")[0]
    return sorted(tag for found in client.images.list(name=repository,
                                                      filters={"label": HASH_LABEL})
                  for tag in found.tags if tag != keep and tag.rpartition(":")[0] == repository)


def prune(client: "DockerClient", keep: str) -> tuple[list[str], list[str]]:
    """Remove the tags ``others`` lists (an image goes with its last tag): (the
    removed, the kept with the engine's reason: a container uses it)."""
    from docker.errors import DockerException

    removed, kept = [], []
    for tag in others(client, keep):
        try:
            client.images.remove(tag)
        except DockerException as exc:
            kept.append(f"{tag} ({said(exc)})")
        else:
            removed.append(tag)
    return removed, kept
