"""Sandboxes: the boxes a submission's code runs in, beside the judge.

A box takes an exercise, a submission and limits, has the judge run the
suite with the student's code in the box, and hands back a :class:`Run`: the
result events the judge wrote (untrusted data, checked by ``grader.report``)
and facts about how the run ended. Which judge and which box grade a
submission is a layout (``grader.layouts``): ``backend`` builds the box of
the layout the table picks for a ``--sandbox`` choice on this host
(``grader.grading`` is how front ends get one). What the boxes share lies in
modules named for it (``interface``, ``outcome``, ``staging``, ``timing``,
``pipes``).
"""

import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from grader import layouts
from grader.contracts.run import Run
from grader.layouts import Layout
from grader.sandbox.interface import Sandbox, Unavailable
from grader.sandbox.outcome import Cancelled, SandboxUnavailable
from grader.sandbox.staging import tar

if TYPE_CHECKING:
    from docker import DockerClient

    from grader.exercises import Exercise, Limits

__all__ = ["Cancelled", "Refused", "Run", "Sandbox", "SandboxUnavailable", "Unavailable",
           "backend", "close", "docker_client", "layout_of", "local_is_boundary", "prepare",
           "tar"]


def local_is_boundary() -> bool:
    """Whether the local sandbox is a security boundary here (bubblewrap works):
    where it is not, untrusted work belongs in Docker."""
    from grader.sandbox import bubblewrap

    return bubblewrap.command() is not None


def docker_client() -> "DockerClient":
    """The engine, with a current grading image, the grader's leftover containers
    swept; else SandboxUnavailable saying why."""
    from grader import image
    from grader.sandbox.containers import sweep

    try:
        client = image.connect()
    except image.NoEngine as exc:
        raise SandboxUnavailable(str(exc)) from None
    why = image.problem(client)
    if why:
        raise SandboxUnavailable(why)
    sweep(client)
    return client


class HostFacts:
    """This host's facts (``layouts.Host``), each probed once, when first asked."""

    @functools.cached_property
    def _engine(self) -> "DockerClient | str":
        try:
            return docker_client()
        except SandboxUnavailable as exc:
            return str(exc)

    @property
    def docker(self) -> str | None:
        return self._engine if isinstance(self._engine, str) else None

    @property
    def client(self) -> "DockerClient":
        assert not isinstance(self._engine, str), "only where Docker is usable"
        return self._engine

    @property
    def bubblewrap(self) -> bool:
        return local_is_boundary()

    @property
    def root(self) -> bool:
        return os.geteuid() == 0


class Refused(Unavailable):
    """The table's refusal: no layout grades here, and why; every run is a grader
    error, in no layout (no code of the student's runs)."""

    layout = layouts.NONE


def layout_of(chosen: Sandbox) -> Layout:
    """The layout a sandbox grades in (a refused one's: none)."""
    return getattr(chosen, "layout", layouts.NONE)


def backend(choice: str, warm: int = 0, warn: Callable[[str], None] | None = None,
            host: layouts.Host | None = None) -> Sandbox:
    """The box of the layout that ``--sandbox choice`` picks here, or a
    :class:`Refused` (its ``why`` the table's words). ``warn`` is told the
    pick's warning (auto's fallback); ``warm``: containers the Docker
    sandbox starts ahead of need (batches)."""
    facts = host or HostFacts()
    picked = layouts.pick(choice, facts)
    if picked.warning and warn:
        warn(picked.warning)
    if picked.layout is None:
        return Refused(layouts.NONE.backend, picked.why)
    return _box(picked.layout, facts, warm)


def _box(layout: Layout, host: layouts.Host, warm: int) -> Sandbox:
    if layout.name == "docker":
        from grader.sandbox.docker import DockerSandbox

        assert isinstance(host, HostFacts)
        return DockerSandbox(host.client, warm=warm)
    if layout.name == "launcher":
        from grader.sandbox.machine import LauncherSandbox

        return LauncherSandbox()
    from grader.sandbox.local import LocalSandbox

    return LocalSandbox(bubblewrap=layout.name == "bubblewrap")


def prepare(chosen: Sandbox, exercise: "Exercise", limits: "Limits") -> None:
    """Make ready ahead of a run of ``exercise`` what a backend can (the Docker
    sandbox's warm containers, started while a queued job waits its turn)."""
    getattr(chosen, "prepare", lambda *_: None)(exercise, limits)


def close(chosen: Sandbox) -> None:
    """Let go of what a backend holds between runs (the Docker sandbox's warm containers)."""
    getattr(chosen, "close", lambda: None)()
