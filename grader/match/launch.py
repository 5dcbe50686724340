"""Starting an agent's process: in bubblewrap (the local sandbox), in a Docker
container (``container``), or plainly for the grader's own trusted baselines.

The bubblewrap view is the local sandbox's (``bubblewrap.agent_command``): the
system's programs and libraries and the interpreter, read-only; of the
package, only what the agent's runner imports (its closure); the agent's
folder, read-only; a small private ``/tmp`` (where the agent's working folder
is made); the libraries offered to agents (``LIBRARIES``: NumPy, from the
grader's own environment, where it is installed); new PID, network, IPC and
UTS namespaces, no capabilities, and, as root, a uid of its own.
"""

import functools
import os
import sys
import tempfile
from importlib import util
from pathlib import Path, PurePosixPath
from typing import Any

from grader import intake
from grader.contracts import agent as contract
from grader.contracts import places
from grader.layouts import AS_ROOT
from grader.match import baselines
from grader.match.player import ProcessAgent
from grader.sandbox import bubblewrap, local, slots
from grader.sandbox.outcome import SandboxUnavailable

RUNNER = "grader.harness.agent.runner"
RUNNER_FILE = places.PACKAGE / "harness" / "agent" / "runner.py"
MEMORY_MB = 512
LIBRARIES = ("numpy",)  # beside the standard library, what an agent may import


def _argv(agent_file: str, class_name: str) -> list[str]:
    return [os.path.realpath(sys.executable), "-I", "-B", str(RUNNER_FILE), agent_file,
            class_name, str(MEMORY_MB)]


def _env(home: str) -> dict[str, str]:
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8",
            "TMPDIR": home, "MALLOC_ARENA_MAX": "2",
            contract.LIBRARIES: os.pathsep.join(sorted({os.path.dirname(f)
                                                        for f in libraries()}))}


@functools.cache
def libraries() -> tuple[str, ...]:
    """The folders of ``LIBRARIES`` installed for the grader (a wheel's bundled
    shared libraries, ``numpy.libs``, beside each): the agent's view binds them."""
    found: list[str] = []
    for name in LIBRARIES:
        spec = util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = os.path.realpath(next(iter(spec.submodule_search_locations)))
        found += [path for path in (folder, f"{folder}.libs", f"{folder}-{name}.libs")
                  if os.path.isdir(path)]
    return tuple(found)


class SlottedAgent(ProcessAgent):
    """An agent whose processes run as a slot's uid (as root): held until ``close``."""

    def __init__(self, *args: Any, slot: slots.Slot | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot = slot

    def close(self) -> None:
        super().close()  # its processes have ended: the uid is free for another run
        if self.slot:
            self.slot.release()


def baseline(name: str) -> ProcessAgent:
    """One of the grader's own baselines, trusted: in a plain process."""
    argv = _argv(str(Path(baselines.__file__)), baselines.BASELINES[name].__name__)
    home = tempfile.mkdtemp(prefix="minimax-grader-baseline-")  # its games' folders, removed
    return ProcessAgent(name, argv, _env(home), home, remove=home)


def modules(source: Path) -> dict[str, bytes]:
    """An agent's files by name: ``source`` as agent.py, or where ``source`` is a
    folder, what the agent exercise takes of it (``intake.take_modules``: agent.py,
    the modules, helper packages and data files beside it); nothing where it has
    no agent.py to take (the agent then can't start, and says why)."""
    if source.is_dir():
        try:
            return intake.take_modules(source, "agent.py").files
        except intake.Rejected:
            return {}
    return {"agent.py": source.read_bytes()}


def lay_out(files: dict[str, bytes], folder: Path) -> Path:
    """An agent's ``files`` written into ``folder`` (readable by all, as its view
    needs), helper packages in their sub-folders; a name that would leave the
    folder is refused."""
    for name, data in files.items():
        relative = PurePosixPath(name)
        if relative.is_absolute() or ".." in relative.parts:
            raise ValueError(f"{name}: not a path inside the agent's folder")
        target = folder.joinpath(*relative.parts)
        for parent in reversed(target.relative_to(folder).parents[:-1]):
            (folder / parent).mkdir(exist_ok=True)
            os.chmod(folder / parent, 0o755)
        target.write_bytes(data)
        os.chmod(target, 0o644)
    return folder


def student(name: str, source: Path, class_name: str, sandbox: str = "local") -> ProcessAgent:
    """A student's agent (the file ``source``, or the folder of its modules) in its
    own sandboxed process.

    Its files are copied into a folder of its own, which the agent's view shows
    read-only and nothing else does; ``close`` on the agent removes it."""
    folder = tempfile.mkdtemp(prefix="minimax-agent-", dir=places.engine_folder())
    os.chmod(folder, 0o755)
    lay_out(modules(source), Path(folder))
    if sandbox == "docker":
        from grader.match import container

        return container.student(name, folder, class_name, MEMORY_MB)
    argv = _argv(str(Path(folder) / "agent.py"), class_name)
    if local.is_boundary():
        slot = bubblewrap.outside_slot()
        command = bubblewrap.agent_command(folder, RUNNER, slot.uid if slot else None, argv,
                                           libraries())
        return SlottedAgent(name, command, _env("/tmp"), folder, remove=folder, slot=slot)
    if os.geteuid() == 0:
        raise SandboxUnavailable(AS_ROOT)
    # No boundary: the agent's processes are found by their TMPDIR, as the
    # local sandbox finds a worker's, and killed with the agent's.
    return ProcessAgent(name, argv, _env(folder), folder, remove=folder,
                        cleanup=lambda: local.kill_leftovers(Path(folder)))
