"""The Docker sandbox: one fresh, hardened container per submission, its judge on the host.

The container holds the launcher and the student's workers only. The job (the
launcher's settings and the student's files) goes in as a tar archive on its
stdin; a warm judge on the host (``judges``: forked per run, in a bubblewrap
view of its own) runs the suite and asks the launcher for the workers over
the container's launcher socket (``launcher_sockets``). The judge's output is the
results channel; the container's, the launcher's log. A machine where
bubblewrap can't make the judge's view is refused up front, in words that say
what to do (``grader.layouts``: the layout ``docker``). The wall-clock limit is
the host's own deadline, enforced with a kill.

A container's life is ``containers``'s, its control group ``engine_groups``'s,
and the containers started ahead of need ``warm_pool``'s.
"""

import dataclasses
import secrets
import shutil
import threading
from typing import TYPE_CHECKING

from grader import layouts
from grader.contracts import job as jobs
from grader.contracts.run import Run
from grader.exercises import Exercise, Limits
from grader.image import default_tag
from grader.intake import Submission
from grader.sandbox import containers, docker_code, judges, launcher_sockets, slots
from grader.sandbox.containers import Running
from grader.sandbox.engine_groups import drop
from grader.sandbox.outcome import SandboxUnavailable
from grader.sandbox.staging import job, job_archive, stage
from grader.sandbox.timing import clock_of, readable_clock, run_group
from grader.sandbox.warm_pool import WarmPool

if TYPE_CHECKING:  # docker is imported where it is used, as in grader.image
    from docker import DockerClient
    from docker.types import Mount

REMOVE_GRACE = 4  # seconds the report waits for the container's removal (it goes on after)


class DockerSandbox:
    """Runs each submission in a fresh container; with ``warm`` > 0, that many
    of each exercise and limits in use are started ahead of need (``warm_pool``)."""

    name = "docker"
    layout = layouts.LAYOUTS["docker"]

    def __init__(self, client: "DockerClient", image: str | None = None, warm: int = 0,
                 code_volumes: bool = True) -> None:
        self.client = client
        self.image = image or default_tag()
        self.code_volumes = code_volumes  # False: the image's layers only (to compare)
        self.code: list[Mount] = []  # the image's code volumes, once they are whole
        self.pool = WarmPool(warm, self._started, self._discard)
        self.live: set[Running] = set()  # started, not yet wholly removed
        self.lock = threading.Lock()

    def run(self, exercise: Exercise, submission: Submission, limits: Limits,
            cancel: threading.Event | None = None) -> Run:
        from docker.errors import DockerException
        from requests.exceptions import RequestException

        # The student's uid: held until the container is removed, nothing of it left.
        slot = slots.take()
        try:
            running = self._container(exercise, limits)
        except (DockerException, RequestException, OSError) as exc:
            slot.release()
            raise SandboxUnavailable(f"the engine refused the container: {exc}") from None
        running.slot = slot
        try:
            return self._judged(running, exercise, submission, limits, cancel)
        except (DockerException, RequestException, OSError) as exc:
            raise SandboxUnavailable(f"the engine failed during the run: {exc}") from None
        finally:
            # A removal that the engine is slow to finish goes on in its thread
            # (and the next sweep) rather than holding up the report.
            containers.within(lambda: self._discard(running), REMOVE_GRACE)

    def prepare(self, exercise: Exercise, limits: Limits) -> None:
        """Make ready what a queued job of this exercise and limits will need: a
        judge on the host, where none is idle, and warm containers (with ``warm``):
        its wait then covers their start-up."""
        if not self.pool.closed:
            judges.POOL.prepare(judges.kind_of(exercise))
        self.pool.warm(exercise, limits)

    def close(self) -> None:
        """Remove the warm containers, and the groups of removals still under way."""
        self.pool.close()
        with self.lock:
            left = [running.group for running in self.live if running.group is not None
                    and running.group.owned]
        for group in left:
            drop(group)

    def _container(self, exercise: Exercise, limits: Limits) -> Running:
        """A started container for this run: a warm one if there is one, else a new one."""
        # The run's own container first: warm-ups made beside it would slow it.
        running = self.pool.take(exercise, limits) or self._started(exercise, limits)
        self.pool.warm(exercise, limits)
        return running

    def _started(self, exercise: Exercise, limits: Limits) -> Running:
        running = containers.start(self.client, self.image, exercise, limits, self._code())
        with self.lock:
            self.live.add(running)
        return running

    def _discard(self, running: Running) -> None:
        containers.discard(running)
        with self.lock:
            self.live.discard(running)

    def _code(self) -> list["Mount"]:
        """The image's code volumes (see ``docker_code``), asked for until they are there."""
        if not self.code and self.code_volumes:
            self.code = docker_code.mounts(self.client, self.image, containers.labels())
        return self.code

    def _judged(self, running: Running, exercise: Exercise, submission: Submission,
                limits: Limits, cancel: threading.Event | None) -> Run:
        """The judge on the host (a warm judge's fork), the container's launcher
        forking the workers it asks for: the container's output is the launcher's
        log, the judge's stdout the results channel. The judge reads its own copy
        of the student's files; the workers, the container's."""
        assert running.slot is not None  # the run's, taken before its container
        token = secrets.token_hex(16)
        # The launcher's job: no suite (the judge runs it), no address-space cap (the
        # container's memory limit caps the workers).
        inside = job(exercise, limits, "", containers.WORK, address_space=False)
        inside["launcher_socket"], inside["token"] = launcher_sockets.ADDRESS, token
        inside["uid"] = running.slot.uid
        # The judge's fork works on what the container sends in a group of its own,
        # whose CPU counts against the run's limits: a hand-in spends no more of
        # the host than they allow.
        with judges.POOL.lent(judges.kind_of(exercise)) as judge, \
                launcher_sockets.listening(running.launcher_socket) as listener, \
                run_group(say=False) as judging:
            work = judge.workspace()
            try:
                stage(exercise, submission, limits, work, readable_clock(running.group),
                      worker_folders=[inside["submission"], inside["provided"]])
                attached = containers.Attached(running.container,
                                               job_archive(inside, submission))
                run: Run | None = None
                try:
                    run = judge.run(work / jobs.FILE, limits, cancel, group=judging,
                                    clock=clock_of(running.group, judging),
                                    launcher=(listener.detach(), token))
                finally:  # the launcher ends once the judge has: killed where it was stopped
                    state = attached.stopped(run is not None and not (
                        run.timed_out or run.overloaded))
            finally:
                shutil.rmtree(work, ignore_errors=True)
        launcher = attached.output.decode("utf-8", "replace")
        return dataclasses.replace(run, backend=self.name, log=run.log + launcher,
                                   out_of_memory=bool(state.get("OOMKilled")))
