"""Sandboxes: where a submission's suite runs, apart from the grader's host side.

A backend takes an exercise, a submission and limits, runs the harness's
supervisor in a fresh, limited environment and hands back a :class:`Run`:
the result events the supervisor wrote (untrusted data, checked by
``grader.report``) and facts about how the run ended. What the backends
share lies in modules named for it (``interface``, ``outcome``, ``staging``,
``timing``, ``pipes``); ``backend`` picks one (``grader.grading`` is how
front ends get one).
"""

from typing import TYPE_CHECKING

from grader.contracts.run import Run
from grader.sandbox.interface import Sandbox, Unavailable
from grader.sandbox.outcome import Cancelled, SandboxUnavailable
from grader.sandbox.staging import tar

if TYPE_CHECKING:
    from grader.exercises import Exercise, Limits

__all__ = ["Cancelled", "Run", "Sandbox", "SandboxUnavailable", "Unavailable", "backend",
           "close", "local_is_boundary", "prepare", "tar"]


def local_is_boundary() -> bool:
    """Whether the local sandbox is a security boundary here (bubblewrap works):
    where it is not, untrusted work belongs in Docker."""
    from grader.sandbox.local import is_boundary

    return is_boundary()


def _docker(warm: int) -> Sandbox:
    from grader import image
    from grader.sandbox.containers import sweep
    from grader.sandbox.docker import DockerSandbox

    try:
        client = image.connect()
    except image.NoEngine as exc:
        raise SandboxUnavailable(str(exc)) from None
    why = image.problem(client)
    if why:
        raise SandboxUnavailable(why)
    sweep(client)
    return DockerSandbox(client, warm=warm)


def backend(name: str, warm: int = 0) -> Sandbox:
    """The sandbox called ``name`` ("local", "docker" or "launcher"), or an
    :class:`Unavailable`.

    ``warm``: containers the Docker sandbox starts ahead of need (for batches).
    """
    if name == "local":
        from grader.sandbox.local import LocalSandbox

        return LocalSandbox()
    if name == "launcher":
        from grader.sandbox.machine import LauncherSandbox

        return LauncherSandbox()
    if name != "docker":
        raise ValueError(f"unknown sandbox {name!r}")
    try:
        return _docker(warm)
    except SandboxUnavailable as exc:
        return Unavailable(name, str(exc))


def prepare(chosen: Sandbox, exercise: "Exercise", limits: "Limits") -> None:
    """Make ready ahead of a run of ``exercise`` what a backend can (the Docker
    sandbox's warm containers, started while a queued job waits its turn)."""
    getattr(chosen, "prepare", lambda *_: None)(exercise, limits)


def close(chosen: Sandbox) -> None:
    """Let go of what a backend holds between runs (the Docker sandbox's warm containers)."""
    getattr(chosen, "close", lambda: None)()
