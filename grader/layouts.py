"""The layouts: which judge grades a submission and in which box its code runs.

One table, by name, and one function that picks a layout from the user's
``--sandbox`` choice and the host's facts, or refuses in words. The sandbox
package builds the box a layout names (``grader.sandbox.backend``); every
report says the layout it was graded in (``sandbox.layout``, and whether the
student's code was isolated: ``sandbox.isolated``).

On a host, the judge is the warm judge (``grader.sandbox.judges``), forked per
run; the boxes only make the student's place. Gradescope's machine has no warm
judge: its supervisor, started per grading beside the launcher, is its one box.
"""

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Layout:
    name: str  # reports' sandbox.layout
    backend: str  # the sandbox's own name: reports' sandbox.backend
    isolated: bool  # whether the student's code runs behind a boundary
    said: str  # how it was graded, in one line of a report


LAYOUTS = {layout.name: layout for layout in (
    Layout("docker", "docker", True,
           "Graded in Docker: the student's code in a container of its own, the judge on "
           "the grading machine in a bubblewrap view of its own."),
    Layout("bubblewrap", "local", True,
           "Graded in bubblewrap: the judge and the student's code each in a view of their "
           "own on the grading machine, unprivileged, without network."),
    Layout("bare", "local", False,
           "Graded without isolation: the judge and the student's code ran as the grading "
           "user, on the grading machine (the local sandbox without bubblewrap)."),
    Layout("launcher", "launcher", True,
           "Graded on a machine made for the one grading (Gradescope's): the student's code "
           "as a user of its own, apart from the supervisor."),
    Layout("none", "none", False, "No code of the student's ran."),
)}
NONE = LAYOUTS["none"]
CHOICES = ("auto", "docker", "local", "launcher")

NO_BUBBLEWRAP = (
    "the Docker sandbox grades with its judge on this machine, in a bubblewrap view of its "
    "own, and bubblewrap is not installed here or can't make its namespaces: install it "
    "(apt-get install bubblewrap) where user namespaces are allowed, or grade on Gradescope's "
    "machine (minimax-grader gradescope-package), or in the local sandbox as an unprivileged "
    "user (--sandbox local), which is no boundary without bubblewrap")
AS_ROOT = ("the local sandbox will not run students' code as root without bubblewrap: "
           "install it (apt-get install bubblewrap), grade in Docker (--sandbox docker), "
           "or run minimax-grader as an unprivileged user")
NOT_ROOT = ("the launcher sandbox runs only as root: it starts the supervisor and the "
            "student's code as two other users")
NOT_A_BOUNDARY = "which is not a security boundary here (bubblewrap is missing)"


class Host(Protocol):
    """What a pick needs to know of the host. Each is asked only where a choice
    needs it: probing Docker or bubblewrap costs a subprocess or a connection."""

    @property
    def docker(self) -> str | None:
        """Why the Docker engine or its grading image can't be used, or None."""

    @property
    def bubblewrap(self) -> bool:
        """Whether bubblewrap is installed and can make the views here."""

    @property
    def root(self) -> bool: ...


@dataclass(frozen=True)
class Pick:
    """A layout, or None and why not; ``warning``: what the user is told once."""

    layout: Layout | None
    why: str = ""
    warning: str = ""


def pick(choice: str, host: Host) -> Pick:
    """The layout for ``--sandbox choice`` on ``host``, or a refusal in words."""
    if choice == "docker":
        return _docker(host)
    if choice == "local":
        return _local(host)
    if choice == "launcher":
        return Pick(LAYOUTS["launcher"]) if host.root else Pick(None, NOT_ROOT)
    if choice != "auto":
        raise ValueError(f"unknown sandbox {choice!r}")
    docker = _docker(host)
    if docker.layout is not None:
        return docker
    local = _local(host)
    if local.layout is None:
        return Pick(None, f"{docker.why}; and {local.why}")
    where = ("a bubblewrap boundary" if local.layout.isolated else NOT_A_BOUNDARY)
    return Pick(local.layout, warning=f"warning: {docker.why}; grading in the local "
                                      f"sandbox, {where}")


def _docker(host: Host) -> Pick:
    if host.docker is not None:
        return Pick(None, host.docker)
    return Pick(LAYOUTS["docker"]) if host.bubblewrap else Pick(None, NO_BUBBLEWRAP)


def _local(host: Host) -> Pick:
    if host.bubblewrap:
        return Pick(LAYOUTS["bubblewrap"])
    return Pick(None, AS_ROOT) if host.root else Pick(LAYOUTS["bare"])


def facts(layout: Layout) -> dict[str, object]:
    """A report's sandbox fields that say the layout."""
    return {"backend": layout.backend, "layout": layout.name, "isolated": layout.isolated}


def said(report_sandbox: dict[str, object]) -> str:
    """A report's line saying how it was graded ("" for a report older than the layouts)."""
    layout = LAYOUTS.get(str(report_sandbox.get("layout")))
    return layout.said if layout else ""
