"""The service's way to its sandbox, shut while the grading image can't be used.

``serve`` and ``worker`` grade untrusted code in Docker, with the grading image
this version expects, and never fall back to the local sandbox by themselves:
only ``--sandbox local`` grades there, with a loud warning. While no engine
answers, or the image is missing or stale, the gate is shut: jobs wait in the
queue, taken by no one and charged no attempt, and the reason with its fix is
in the log and on the instructor's page. A shut gate looks again every few
seconds, an open one checks its image as often, so that waiting jobs are
graded once the image is built.
"""

import logging
import sys
import threading
import time
from typing import TYPE_CHECKING

from grader import grading, image
from grader.sandbox import Sandbox, Unavailable, layout_of

if TYPE_CHECKING:  # docker is imported where it is used, as in grader.image
    from docker import DockerClient

log = logging.getLogger("grader.service")
LOOK_SECONDS = 2.0
LOCAL_WARNING = """
************************************************************************
WARNING: grading in the LOCAL sandbox. It is NOT a security boundary:
students' code runs as this user, on this machine, with its files and
network. Use it only for trusted code or a test; install bubblewrap
(apt-get install bubblewrap), or Docker and the grading image (minimax-grader
image build), to grade untrusted submissions.
************************************************************************"""


def local() -> Sandbox:
    """The local sandbox, asked for by name; where it is no boundary (no bubblewrap
    here), warned about on stderr and in the log."""
    chosen = grading.open_sandbox("local")
    if isinstance(chosen, Unavailable):
        log.error("the local sandbox can't grade here: %s", chosen.why)
    elif layout_of(chosen).isolated:
        log.info("grading in the local sandbox, in bubblewrap")
    else:
        print(LOCAL_WARNING, file=sys.stderr, flush=True)
        log.warning("grading in a sandbox that is not a security boundary")
    return chosen


class Gate:
    """The sandbox to grade in now, or None and ``why`` (see the module's text).

    Given a ``sandbox`` (the local one asked for by name, a test's), always open
    on it; else open on Docker while its image can be used, with ``warm``
    containers started ahead of need (the grading slots: each still grades one
    submission and is removed)."""

    def __init__(self, sandbox: Sandbox | None = None,
                 look_seconds: float = LOOK_SECONDS, warm: int = 0) -> None:
        self.look_seconds = look_seconds
        self.warm = warm
        self.why: str | None = None
        self._sandbox = sandbox
        self._docker = sandbox is None
        self._client: DockerClient | None = None
        self._looked = -float("inf")
        self._lock = threading.Lock()
        self.sandbox()  # the reason, if any, is said at the start

    @classmethod
    def chosen(cls, choice: str, warm: int = 0) -> "Gate":
        """The gate of ``--sandbox choice``: "local" by name, anything else Docker
        (``warm``: the runs at once it is opened for)."""
        return cls(local() if choice == "local" else None, warm=warm)

    @property
    def current(self) -> Sandbox | None:
        """The sandbox as last looked at, without looking."""
        return self._sandbox

    def sandbox(self) -> Sandbox | None:
        """The sandbox to grade in now; None while the gate is shut (``why`` says why).

        An open gate checks its image in a thread of its own, beside the grading: the
        check asks the engine and hashes the harness, tens of milliseconds that a job
        taken meanwhile need not wait for (a job graded as the image goes gets an error
        report, and ``look_again`` then holds it)."""
        with self._lock:
            if not self._docker or time.monotonic() - self._looked < self.look_seconds:
                return self._sandbox
            self._looked = time.monotonic()
            if self._sandbox is None:  # shut: nothing grades until it has looked
                self._look()
                return self._sandbox
            threading.Thread(target=self._look_aside, daemon=True).start()
            return self._sandbox

    def look_again(self) -> Sandbox | None:
        """The sandbox after looking now: after a run that failed for want of it."""
        with self._lock:
            if self._docker:
                self._looked = time.monotonic()
                self._look()
            return self._sandbox

    def _look(self) -> None:
        """Check the engine and the image, opening or shutting the gate (locked)."""
        why = self._problem()
        if why is None and self._sandbox is None:
            opened = grading.open_sandbox("docker", warm=self.warm)
            why = opened.why if isinstance(opened, Unavailable) else None
            self._sandbox = None if why else opened
        self._say(why)

    def _look_aside(self) -> None:
        """An open gate's check: the lock is taken only to shut it."""
        why = self._problem()
        if why is not None:
            with self._lock:
                self._say(why)

    def _problem(self) -> str | None:
        """Why Docker can't grade now (no engine, the image missing or stale), or None."""
        from docker.errors import DockerException
        from requests.exceptions import RequestException

        try:
            self._client = self._client or image.connect()
            return image.problem(self._client)
        except image.NoEngine as exc:
            return f"{exc}; then build the grading image: minimax-grader image build"
        except (DockerException, RequestException) as exc:  # the engine went away
            self._client = None
            return f"the Docker engine failed ({type(exc).__name__}); is it running?"

    def _say(self, why: str | None) -> None:
        """Log a change: the gate shuts (why, and the fix) or opens."""
        if why == self.why:
            return
        if why is None:
            log.info("the grading image is there: waiting jobs are graded")
        else:
            log.warning("grading waits: %s (only --sandbox local grades without isolation)",
                        why)
            if self._sandbox is not None:
                grading.close(self._sandbox)
                self._sandbox = None
        self.why = why

    def close(self) -> None:
        with self._lock:
            if self._sandbox is not None:
                grading.close(self._sandbox)
