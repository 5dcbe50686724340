"""The Docker sandbox: one fresh, hardened container per submission, its judge on the host.

The container holds the launcher and the student's workers only. The job (the
launcher's settings and the student's files) goes in as a tar archive on its
stdin; a warm judge on the host (``judges``: forked per run, in a bubblewrap
view of its own) runs the suite and asks the launcher for the workers over a
socket bound into the container. The judge's output is the results channel;
the container's, the launcher's log. A machine where bubblewrap can't make
the judge's view is refused, in words that say what to do. The wall-clock
limit is the host's own deadline, enforced with a kill. Every container is
labelled and removed in every path; leftovers of crashed runs are swept by
label.
"""

import collections
import contextlib
import dataclasses
import functools
import os
import secrets
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar

from grader.contracts import job as jobs
from grader.contracts import places
from grader.contracts.events import RESULTS_CAP
from grader.exercises import Exercise, Limits
from grader.image import default_tag
from grader.intake import Submission
from grader.sandbox import bubblewrap, cgroups, docker_code, judges, slots
from grader.sandbox.common import (
    LOG_CAP,
    Run,
    SandboxUnavailable,
    clock_of,
    job,
    job_archive,
    keep,
    readable_clock,
    run_group,
    stage,
)

if TYPE_CHECKING:  # docker is imported where it is used, as in grader.image
    from docker import DockerClient
    from docker.models.containers import Container
    from docker.types import Mount

T = TypeVar("T")

LABEL = "minimax-grader.sandbox"
# The folder of a container's judge socket, as the container sees it.
JUDGE_SOCKET_IN_CONTAINER = "/run/minimax-grader-judge-socket"
JUDGE_SOCKET = "judge.sock"
JUDGE_SOCKET_PREFIX = "minimax-grader-judge-socket-"  # then the host's pid: a dead host's are swept
WORK = PurePosixPath("/work")
WORK_MB = 8  # the job and the student's files
SHM_MB = 8
NO_BUBBLEWRAP = (
    "the Docker sandbox grades with its judge on this machine, in a bubblewrap view of its "
    "own, and bubblewrap is not installed here or can't make its namespaces: install it "
    "(apt-get install bubblewrap) where user namespaces are allowed, or grade on Gradescope's "
    "machine (minimax-grader gradescope-package), or in the local sandbox as an unprivileged "
    "user (--sandbox local), which is no boundary without bubblewrap")


def _scratch_mb(limits: Limits) -> int:
    """The student's /tmp: an eighth of the memory limit, 16 MB at least."""
    return max(16, limits.memory_mb // 8)

STOP_GRACE = 3  # seconds for the engine to end a container, once its run is over
REMOVE_GRACE = 4  # seconds the report waits for the container's removal (it goes on after)
CLOSE_GRACE = 40  # seconds close() waits for warm-ups (the client's own timeout is 30 s)
STALE_SECONDS = 300  # a pair of exercise and limits unused this long keeps no warm container


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
        # The launcher changes to the grader's and the student's users and
        # kills the student's processes; nothing else is kept.
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
    folders of their judges' sockets)."""
    judges.sweep(JUDGE_SOCKET_PREFIX, places.engine_folder())
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


class _Pump(threading.Thread):
    """Reads the container's multiplexed output, keeping capped stdout and stderr."""

    def __init__(self, sock: Any) -> None:
        super().__init__(daemon=True)
        self.sock = sock
        self.out, self.err = bytearray(), bytearray()

    def run(self) -> None:
        from docker.utils.socket import frames_iter

        try:
            for stream, data in frames_iter(self.sock, tty=False):
                if stream == 1:
                    keep(self.out, data, RESULTS_CAP)
                else:
                    keep(self.err, data, LOG_CAP)
        except (OSError, ValueError):  # ValueError: the host closed the stream first
            pass  # the connection ends with the container


class DockerSandbox:
    """Runs each submission in a fresh container.

    With ``warm`` > 0 it keeps that many containers of each exercise and
    limits in use created and started ahead of need (their launcher waits for
    its job on stdin), so that the engine's start-up of the next container
    overlaps the current run, or the wait of a queued job (``prepare``); those
    of a pair unused for ``STALE_SECONDS`` are removed, and ``close()``
    removes them all. Each is still used for one submission only.
    """

    name = "docker"

    def __init__(self, client: "DockerClient", image: str | None = None, warm: int = 0,
                 code_volumes: bool = True) -> None:
        self.client = client
        self.judge_sockets: dict[str, Path] = {}  # container id -> its judge socket's folder
        self.image = image or default_tag()
        self.warm = warm
        self.code_volumes = code_volumes  # False: the image's layers only (to compare)
        # (key, container) started and waiting for a job
        self.ready: list[tuple[tuple[str, Limits], Container]] = []
        self.making: collections.Counter[tuple[str, Limits]] = collections.Counter()
        self.used: dict[tuple[str, Limits], float] = {}  # key -> when last wanted
        self.warming: list[threading.Thread] = []  # warm-ups that may still create one
        self.code: list[Mount] = []  # the image's code volumes, once they are whole
        self.closed = False
        self.lock = threading.Lock()
        self.groups: dict[str, cgroups.Group] = {}  # container id -> the group made for it
        self.cgroup_version: str | None = None  # the engine's (``_engine_groups``)

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> Run:
        from docker.errors import DockerException
        from requests.exceptions import RequestException

        if not self.judge_view:
            raise SandboxUnavailable(NO_BUBBLEWRAP)
        # The student's uid: held until the container is removed, nothing of it left.
        slot = slots.take()
        try:
            container = self._container(exercise, limits)
        except (DockerException, RequestException) as exc:
            slot.release()
            raise SandboxUnavailable(f"the engine refused the container: {exc}") from None
        try:
            return self._judged(container, exercise, submission, limits, cancel, slot.uid)
        except (DockerException, RequestException, OSError) as exc:
            raise SandboxUnavailable(f"the engine failed during the run: {exc}") from None
        finally:
            # A removal that the engine is slow to finish goes on in its thread
            # (and the next sweep) rather than holding up the report.
            _within(lambda: self._discard(container, slot), REMOVE_GRACE)

    @functools.cached_property
    def judge_view(self) -> bool:
        """Whether bubblewrap can make the view of the judges on this machine (asked once)."""
        return bubblewrap.command() is not None

    # -- the run's control group ---------------------------------------------

    def _engine_groups(self) -> str:
        """The engine's control groups: "2" (each container a v2 group of its own,
        seen inside at /sys/fs/cgroup) or "1" (v1 groups, no pressure to read)."""
        if self.cgroup_version is None:
            self.cgroup_version = str(self.client.info().get("CgroupVersion", "1"))
        return self.cgroup_version

    def _new_group(self) -> cgroups.Group | None:
        """A v2 group of the grader's own for a container of a v1 engine, where this
        host has a v2 hierarchy beside v1 (a v2 engine's containers have their own)."""
        if self._engine_groups() == "2" or cgroups.available():
            return None
        made = cgroups.Group()
        if made.where.version == 2:
            return made
        made.remove()
        return None

    def _group_outside(self, container: "Container") -> cgroups.Group | None:
        """``container``'s control group as the host sees it, or None."""
        if container.id in self.groups:
            return self.groups[str(container.id)]
        pid = container.attrs.get("State", {}).get("Pid")
        if not pid or self._engine_groups() != "2" or cgroups.available():
            return None
        return cgroups.of_container(pid, str(container.id))

    def _discard(self, container: "Container", slot: slots.Slot | None = None) -> None:
        """Remove ``container``, and the group the grader made for it (killed first:
        the container's processes end at once, and its removal is quick); then
        free the run's ``slot``, where the container was removed."""
        group = self.groups.get(str(container.id))
        if group is not None:
            group.kill()
        removed = _remove(container)
        if slot is not None and removed:
            slot.release()  # else held until this process ends: the sweep removes it
        if group is not None:
            _drop_group(group)
            self.groups.pop(str(container.id), None)
        folder = self.judge_sockets.pop(str(container.id), None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def _started(self, exercise: Exercise, limits: Limits) -> "Container":
        """A new container, started; one the engine made but could not start is removed."""
        # The launcher's arguments: its work folder, and the game whose worker's
        # modules it imports while the job is on its way.
        from docker.types import Mount

        group = self._new_group()
        folder = _judge_socket_folder()
        # Read-only: the launcher connects to the judge's socket there, nothing writes.
        seen = Mount(JUDGE_SOCKET_IN_CONTAINER, str(folder), type="bind", read_only=True)
        try:
            container = self.client.containers.create(
                self.image, command=[str(WORK), jobs.JUDGE_OUTSIDE, exercise.game],
                labels={**labels(), f"{LABEL}.exercise": exercise.id},
                mounts=[*self._code(), seen], **host_config(limits))
        except BaseException:
            if group:
                group.remove()
            shutil.rmtree(folder, ignore_errors=True)
            raise
        if group:
            self.groups[str(container.id)] = group
        self.judge_sockets[str(container.id)] = folder
        try:
            container.start()
            container.reload()  # its pid, and where a v2 engine put it
            if group:  # the launcher waits for its job: nothing of the run forks yet
                group.take(container.attrs["State"]["Pid"])
        except BaseException:
            self._discard(container)
            raise
        return container

    def _code(self) -> list["Mount"]:
        """The image's code volumes (see ``docker_code``), asked for until they are there."""
        if not self.code and self.code_volumes:
            self.code = docker_code.mounts(self.client, self.image, labels())
        return self.code

    def _container(self, exercise: Exercise, limits: Limits) -> "Container":
        """A started container for this run: a warm one if there is one, else a new one."""
        key = (exercise.id, limits)
        with self.lock:
            found = next((c for k, c in self.ready if k == key), None)
            self.ready = [(k, c) for k, c in self.ready if c is not found]
        # The run's own container first: warm-ups made beside it would slow it.
        container = found if found is not None else self._started(exercise, limits)
        self._warm(exercise, limits)
        return container

    def prepare(self, exercise: Exercise, limits: Limits) -> None:
        """Make ready what a queued job of this exercise and limits will need: a
        judge on the host, where none is idle, and warm containers (with ``warm``):
        its wait then covers their start-up."""
        if self.judge_view and not self.closed:
            judges.POOL.prepare(judges.kind_of(exercise))
        self._warm(exercise, limits)

    def _warm(self, exercise: Exercise, limits: Limits) -> None:
        """Start warming containers for this exercise and limits (with ``warm``),
        before a job needs one. Those of pairs unused for ``STALE_SECONDS`` are
        removed."""
        if not self.warm or self.closed:
            return
        key, now = (exercise.id, limits), time.monotonic()
        with self.lock:
            self.used[key] = now
            stale = [c for k, c in self.ready if now - self.used.get(k, now) > STALE_SECONDS]
            self.ready = [(k, c) for k, c in self.ready if c not in stale]
        for container in stale:
            self._discard(container)
        warming = threading.Thread(target=self._warm_up, args=(exercise, limits), daemon=True)
        with self.lock:  # listed once started: a listed warm-up that is not alive has ended
            warming.start()
            self.warming = [t for t in self.warming if t.is_alive()] + [warming]

    def _warm_up(self, exercise: Exercise, limits: Limits) -> None:
        """Start containers until ``warm`` wait, or are being made, for these limits
        (errors: the next run's)."""
        key = (exercise.id, limits)
        while True:
            with self.lock:
                if self.closed or sum(k == key for k, _ in self.ready) + self.making[key] \
                        >= self.warm:
                    return
                self.making[key] += 1
            try:
                container = self._started(exercise, limits)
            except Exception:  # the engine is failing: a run made when needed will say how
                with self.lock:
                    self.making[key] -= 1
                return
            with self.lock:
                self.making[key] -= 1
                if not self.closed:
                    self.ready.append((key, container))
                    continue
            self._discard(container)
            return

    def close(self) -> None:
        """Remove the warm containers, those a warm-up is still making included:
        a warm-up cut off by the end of the process would leave its container."""
        with self.lock:
            ready, self.ready, self.closed = self.ready, [], True
            warming = list(self.warming)
        for _, container in ready:
            self._discard(container)
        deadline = time.monotonic() + CLOSE_GRACE
        for thread in warming:  # each removes what it made once it sees closed
            thread.join(max(0.0, deadline - time.monotonic()))
        for group in list(self.groups.values()):  # of removals still under way
            _drop_group(group)

    def _judged(self, container: "Container", exercise: Exercise, submission: Submission,
                limits: Limits, cancel: threading.Event | None, uid: int) -> Run:
        """The judge on the host (a warm judge's fork), the container's launcher
        forking the workers it asks for: the container's output is the launcher's
        log, the judge's stdout the results channel. The judge reads its own copy
        of the student's files; the workers, the container's."""
        token = secrets.token_hex(16)
        # The launcher's job: no suite (the judge runs it), no address-space cap (the
        # container's memory limit caps the workers).
        inside = job(exercise, limits, "", WORK, address_space=False)
        inside["judge_socket"] = f"{JUDGE_SOCKET_IN_CONTAINER}/{JUDGE_SOCKET}"
        inside["token"] = token
        inside["uid"] = uid
        group = self._group_outside(container)
        address = self.judge_sockets[str(container.id)] / JUDGE_SOCKET
        # The judge's fork works on what the container sends in a group of its own,
        # whose CPU counts against the run's limits: a hand-in spends no more of
        # the host than they allow.
        with judges.POOL.lent(judges.kind_of(exercise)) as judge, \
                _listening(address) as listener, run_group(say=False) as judging:
            work = judge.workspace()
            try:
                stage(exercise, submission, limits, work, readable_clock(group),
                      worker_folders=[inside["submission"], inside["provided"]])
                sock, raw, pump = _attached(container, job_archive(inside, submission))
                run: Run | None = None
                try:
                    run = judge.run(work / jobs.FILE, limits, cancel, group=judging,
                                    clock=clock_of(group, judging),
                                    launcher=(listener.detach(), token))
                finally:  # the launcher ends once the judge has: killed where it was stopped
                    state = _stopped(container, sock, raw, pump, run is not None and not (
                        run.timed_out or run.overloaded))
            finally:
                shutil.rmtree(work, ignore_errors=True)
        launcher = bytes(pump.out + pump.err).decode("utf-8", "replace")
        return dataclasses.replace(run, backend=self.name, log=run.log + launcher,
                                   out_of_memory=bool(state.get("OOMKilled")))


# Who may reach a container's judge socket: the container's launcher is its root,
# with no capability to override a file's mode; as root the host owns it alike.
# Otherwise anyone may look the socket up (no listing) and connect, but the judge
# takes one connection, which must say the run's token.
JUDGE_SOCKET_MODES = (0o700, 0o600) if os.geteuid() == 0 else (0o711, 0o666)


def _judge_socket_folder() -> Path:
    """A new folder for a container's judge socket."""
    folder = Path(tempfile.mkdtemp(prefix=f"{JUDGE_SOCKET_PREFIX}{os.getpid()}-",
                                   dir=places.engine_folder()))
    folder.chmod(JUDGE_SOCKET_MODES[0])
    return folder


@contextlib.contextmanager
def _listening(address: Path) -> Iterator[socket.socket]:
    """A socket listening at ``address`` for the container's launcher, removed after."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as listener:
        folder = os.open(address.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            # By the folder's descriptor: a socket's path holds 107 bytes at most,
            # and the temporary folder's may be longer.
            listener.bind(f"/proc/self/fd/{folder}/{address.name}")
        finally:
            os.close(folder)
        try:
            address.chmod(JUDGE_SOCKET_MODES[1])
            listener.listen(1)
            yield listener
        finally:
            address.unlink(missing_ok=True)


def _attached(container: "Container", archive: bytes) -> tuple[Any, socket.socket, _Pump]:
    """Attach to the container's streams, read them (``_Pump``) and send its job."""
    # The launcher writes nothing before its job: attaching after the start
    # (with the logs so far) loses no output.
    sock: Any = container.attach_socket(params={"stdin": 1, "stdout": 1, "stderr": 1,
                                                "stream": 1, "logs": 1})
    raw: socket.socket = sock._sock  # the SDK's wrapper can't half-close; the socket can
    pump = _Pump(sock)
    pump.start()
    raw.sendall(archive)
    raw.shutdown(socket.SHUT_WR)
    return sock, raw, pump


def _stopped(container: "Container", sock: Any, raw: socket.socket, pump: _Pump,
             ended: bool) -> dict[str, Any]:
    """Wait for the container to end (killed unless it ``ended`` on its own) and its
    streams to close: its state. From here every step has a deadline: the report
    must not wait on a slow engine. A kill, or a container whose streams stay
    open, gets STOP_GRACE seconds in all; the events already read are the verdicts."""
    stop_by = time.monotonic() + STOP_GRACE
    if not ended:
        _within(lambda: _kill(container), STOP_GRACE)
    pump.join(timeout=max(0, stop_by - time.monotonic()))
    if pump.is_alive():  # the engine has not ended the stream: end it here
        try:
            raw.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        pump.join(timeout=1)
    sock.close()
    raw.close()
    return _within(lambda: _final_state(container, stop_by), STOP_GRACE) or {}


def _within(call: Callable[[], T], seconds: float) -> T | None:
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


def _drop_group(group: cgroups.Group) -> None:
    try:
        group.remove()
    except OSError:  # still emptying: the next sweep removes it
        pass


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


def _remove(container: "Container") -> bool:
    """Remove ``container``: whether it is gone."""
    from docker.errors import NotFound

    try:
        container.remove(force=True)
    except NotFound:
        return True
    except Exception:  # a leftover is swept by label next time
        return False
    return True
