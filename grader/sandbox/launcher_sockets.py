"""The launcher socket: where a grading container's launcher reaches its run's judge.

Each grading container has a folder of its own, made in the engine's folder
(``places.engine_folder``) and bound read-only into the container at
``IN_CONTAINER``. For the run the host listens on a socket there
(``listening``) and hands the listening socket to the run's judge on the
host, which takes one connection, that says the run's token, and no other.
The folders of hosts that have ended are swept by their prefix.
"""

import contextlib
import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from grader.contracts import places
from grader.sandbox import judges

if TYPE_CHECKING:
    from docker.types import Mount

IN_CONTAINER = "/run/minimax-grader-launcher-socket"  # the folder, as the container sees it
NAME = "launcher.sock"
ADDRESS = f"{IN_CONTAINER}/{NAME}"  # the socket, as the launcher connects to it
PREFIX = "minimax-grader-launcher-socket-"  # then the host's pid: a dead host's are swept
# Who may reach the socket: the container's launcher is its root, with no
# capability to override a file's mode; as root the host owns it alike.
# Otherwise anyone may look the socket up (no listing) and connect, but the
# judge takes one connection, which must say the run's token.
MODES = (0o700, 0o600) if os.geteuid() == 0 else (0o711, 0o666)


def folder() -> Path:
    """A new folder for a container's launcher socket."""
    made = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=places.engine_folder()))
    made.chmod(MODES[0])
    return made


def mount(made: Path) -> "Mount":
    """``made`` bound into the container, read-only: the launcher connects there,
    nothing writes."""
    from docker.types import Mount

    return Mount(IN_CONTAINER, str(made), type="bind", read_only=True)


@contextlib.contextmanager
def listening(made: Path) -> Iterator[socket.socket]:
    """A socket listening in the folder ``made`` for the container's launcher,
    removed after."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as listener:
        opened = os.open(made, os.O_RDONLY | os.O_DIRECTORY)
        try:
            # By the folder's descriptor: a socket's path holds 107 bytes at most,
            # and the temporary folder's may be longer.
            listener.bind(f"/proc/self/fd/{opened}/{NAME}")
        finally:
            os.close(opened)
        try:
            (made / NAME).chmod(MODES[1])
            listener.listen(1)
            yield listener
        finally:
            (made / NAME).unlink(missing_ok=True)


def sweep() -> int:
    """Remove the folders that hosts no longer running left: how many."""
    return judges.sweep(PREFIX, places.engine_folder())
