"""A grading container's life: made, started, attached, stopped, removed, swept.

One record (``Running``) per container holds what is its own: the container,
its launcher socket's folder, its control group and, once a run takes it, the
run's slot; ``discard`` lets all of them go at once. Every container carries
the label ``LABEL`` and its owner (this host and process), by which the
leftovers of a host that has ended are swept.
"""

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar

from grader.contracts import job as jobs
from grader.exercises import Exercise, Limits
from grader.sandbox import cgroups, engine_groups, launcher_sockets, slots
from grader.sandbox.pipes import LOG_CAP, keep

if TYPE_CHECKING:  # docker is imported where it is used, as in grader.image
    from docker import DockerClient
    from docker.models.containers import Container
    from docker.types import Mount

T = TypeVar("T")

LABEL = "minimax-grader.sandbox"
WORK = PurePosixPath("/work")  # the launcher's work folder: the job and the student's files
WORK_MB = 8
SHM_MB = 8
STOP_GRACE = 3  # seconds for the engine to end a container, once its run is over


def _scratch_mb(limits: Limits) -> int:
    """The student's /tmp: an eighth of the memory limit, 16 MB at least."""
    return max(16, limits.memory_mb // 8)


def host_config(limits: Limits) -> dict[str, Any]:
    """The container's settings: the hardening lives here, in one place."""
    from docker.types import LogConfig, Ulimit

    return dict(
        network_mode="none",
        read_only=True,
        # What tmpfs folders hold counts against the memory limit: keep them small.
        tmpfs={str(WORK): f"rw,size={WORK_MB}m,mode=755",
               "/tmp": f"rw,size={_scratch_mb(limits)}m,mode=1777"},
        shm_size=f"{SHM_MB}m",
        mem_limit=f"{limits.memory_mb}m",
        memswap_limit=f"{limits.memory_mb}m",
        nano_cpus=1_000_000_000,
        pids_limit=limits.processes * 2,
        cap_drop=["ALL"],
        # The launcher changes to the student's user and kills the student's
        # processes; nothing else is kept.
        cap_add=["SETUID", "SETGID", "KILL"],
        security_opt=["no-new-privileges"],
        user="0:0",
        ulimits=[
            Ulimit(name="nofile", soft=256, hard=256),
            Ulimit(name="fsize", soft=limits.file_bytes, hard=limits.file_bytes),
            Ulimit(name="core", soft=0, hard=0),
        ],
        environment={"LANG": "C.UTF-8", "PATH": "/usr/local/bin:/usr/bin:/bin"},
        log_config=LogConfig(type="json-file", config={"max-size": "1m", "max-file": "1"}),
        init=True,
        stdin_open=True,
    )


def _owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def labels(kind: str = "1") -> dict[str, str]:
    """The labels of this process's containers (a grading run's, or ``kind``: a match's
    "agent"): ``sweep`` removes them once it has ended."""
    return {LABEL: kind, f"{LABEL}.owner": _owner()}


def sweep(client: "DockerClient") -> int:
    """Remove the grader's containers that no live grading run owns (and the
    folders of their launcher sockets)."""
    launcher_sockets.sweep()
    removed = 0
    # Another grader on this engine may remove a container while it is listed.
    for container in client.containers.list(all=True, filters={"label": LABEL},
                                            ignore_removed=True):
        # A live grader's container may be created and not yet started: leave it.
        if live_owner(container):
            continue
        try:
            container.remove(force=True)
            removed += 1
        except Exception:  # gone already, or the engine is busy: next sweep
            pass
    return removed


def live_owner(container: "Container") -> bool:
    """Whether a grading run that is still alive on this host owns the container."""
    host, _, pid = container.labels.get(f"{LABEL}.owner", "").partition(":")
    return host == socket.gethostname() and _alive(pid)


def _alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


@dataclass(eq=False)
class Running:
    """A grading container this process started, and what is its own."""

    container: "Container"
    launcher_socket: Path  # the folder of its launcher socket (``launcher_sockets``)
    group: cgroups.Group | None = None  # as ``engine_groups.of`` found or made it
    slot: slots.Slot | None = None  # its run's uid, held until the container is removed


def start(client: "DockerClient", image: str, exercise: Exercise, limits: Limits,
          mounts: list["Mount"]) -> Running:
    """A new grading container for ``exercise``, started, with ``mounts`` (the
    image's code volumes): its launcher imports the game's worker modules and
    waits for its job on stdin. One the engine made but could not start is
    removed."""
    folder = launcher_sockets.folder()
    try:
        container = client.containers.create(
            image, command=[str(WORK), jobs.JUDGE_OUTSIDE, exercise.game],
            labels={**labels(), f"{LABEL}.exercise": exercise.id},
            mounts=[*mounts, launcher_sockets.mount(folder)], **host_config(limits))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    running = Running(container, folder)
    try:
        container.start()
        container.reload()  # its pid
        running.group = engine_groups.of(container)
    except BaseException:
        discard(running)
        raise
    return running


def discard(running: Running) -> None:
    """Remove the container and what is its own. A group the grader made is
    killed first (the container's processes end at once, and its removal is
    quick); the run's slot is freed where the container was removed (else held
    until this process ends: the sweep removes it)."""
    made = running.group if running.group is not None and running.group.owned else None
    if made is not None:
        made.kill()
    if remove(running.container) and running.slot is not None:
        running.slot.release()
    if made is not None:
        engine_groups.drop(made)
    shutil.rmtree(running.launcher_socket, ignore_errors=True)


def remove(container: "Container") -> bool:
    """Remove ``container``: whether it is gone."""
    from docker.errors import NotFound

    try:
        container.remove(force=True)
    except NotFound:
        return True
    except Exception:  # a leftover is swept by label next time
        return False
    return True


class Attached:
    """A started container's streams: its job sent on stdin, and its output (the
    launcher's log, both streams as they come) read by a thread, capped."""

    def __init__(self, container: "Container", archive: bytes) -> None:
        # The launcher writes nothing before its job: attaching after the start
        # (with the logs so far) loses no output.
        self.container = container
        sock: Any = container.attach_socket(params={"stdin": 1, "stdout": 1, "stderr": 1,
                                                    "stream": 1, "logs": 1})
        self.sock = sock
        self.raw: socket.socket = sock._sock  # the SDK's wrapper can't half-close; this can
        self.output = bytearray()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.raw.sendall(archive)
        self.raw.shutdown(socket.SHUT_WR)

    def _read(self) -> None:
        from docker.utils.socket import frames_iter

        try:
            for _, data in frames_iter(self.sock, tty=False):
                keep(self.output, data, LOG_CAP)
        except (OSError, ValueError):  # ValueError: the host closed the stream first
            pass  # the connection ends with the container

    def stopped(self, ended: bool) -> dict[str, Any]:
        """Wait for the container to end (killed unless it ``ended`` on its own) and
        its streams to close: its state. From here every step has a deadline: the
        report must not wait on a slow engine. A kill, or a container whose streams
        stay open, gets STOP_GRACE seconds in all."""
        stop_by = time.monotonic() + STOP_GRACE
        if not ended:
            within(lambda: _kill(self.container), STOP_GRACE)
        self.reader.join(timeout=max(0, stop_by - time.monotonic()))
        if self.reader.is_alive():  # the engine has not ended the stream: end it here
            try:
                self.raw.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.reader.join(timeout=1)
        self.sock.close()
        self.raw.close()
        return within(lambda: _final_state(self.container, stop_by), STOP_GRACE) or {}


def within(call: Callable[[], T], seconds: float) -> T | None:
    """``call()``'s value, or None when it has not returned within ``seconds``
    (it goes on in its own thread, bounded by the client's own timeout)."""
    box: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            box.append((True, call()))
        except Exception as exc:  # raised in the caller's thread below
            box.append((False, exc))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(seconds)
    if not box:
        return None
    ok, value = box[0]
    if not ok:
        raise value
    returned: T = value
    return returned


def _kill(container: "Container") -> None:
    try:
        container.kill()
    except Exception:  # it ended on its own meanwhile, or the removal will kill it
        pass


def _final_state(container: "Container", deadline: float) -> dict[str, Any]:
    """The container's state once it has stopped, or as it is at ``deadline``
    (the SDK's wait() is no deadline)."""
    while True:
        container.reload()
        state: dict[str, Any] = container.attrs.get("State", {})
        if state.get("Status") in ("exited", "dead") or time.monotonic() > deadline:
            return state
        time.sleep(0.05)
