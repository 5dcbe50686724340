"""An agent's process in a Docker container of its own, from the grading image.

The container is the Docker sandbox's (``containers.host_config``: no network, a
read-only root, no capabilities, a memory and process cap, one CPU), run as
nobody, with two folders bound read-only: the agent's own, and a copy of the
few grader modules its runner imports (its closure), so that nothing else of
the grader is there to read. The referee talks to it through ``docker start
-ai`` and times it by the container's control group (the engine's own, found
from the container's first process; see ``cgroups.of_container``), frozen
between its moves as any agent's; a fresh container is made for each start.
"""

import os
import shutil
import subprocess
import tempfile
import time
from importlib import util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader import image
from grader.contracts import places
from grader.exercises import Limits as SandboxLimits
from grader.harness.runtime import closure
from grader.match import clock
from grader.match.player import START_SECONDS, ProcessAgent
from grader.sandbox import backend, cgroups, docker_code
from grader.sandbox.containers import host_config, labels
from grader.sandbox.docker import DockerSandbox
from grader.sandbox.interface import Unavailable
from grader.sandbox.outcome import SandboxUnavailable

if TYPE_CHECKING:
    from docker import DockerClient
    from docker.models.containers import Container

NOBODY = "65534:65534"
CODE, AGENT = "/opt/agent", "/agent"  # where the closure and the agent's folder are bound


def connect() -> "DockerClient":
    """The engine, with a current grading image (as the Docker sandbox has it);
    else SandboxUnavailable."""
    chosen = backend("docker")
    if isinstance(chosen, Unavailable):
        raise SandboxUnavailable(chosen.why)
    assert isinstance(chosen, DockerSandbox)
    return chosen.client


def copy_closure(root: str) -> str:
    """A folder holding the modules ``root`` imports, as the package lays them out."""
    folder = tempfile.mkdtemp(prefix="minimax-agent-code-", dir=places.engine_folder())
    base = places.PACKAGE.parent
    for module in closure.worker_modules(root):
        spec = util.find_spec(module)
        if spec is not None and spec.origin:
            target = Path(folder) / Path(spec.origin).relative_to(base)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(spec.origin, target)
    for path in [Path(folder), *Path(folder).rglob("*")]:
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return folder


class ContainerAgent(ProcessAgent):
    def __init__(self, name: str, client: "DockerClient", folder: str, code: str,
                 class_name: str, memory_mb: int) -> None:
        super().__init__(name, [], {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, folder,
                         remove=folder)
        self.client, self.code = client, code
        self.argv = [f"{AGENT}/agent.py", class_name, str(memory_mb)]
        self.limits = SandboxLimits(memory_mb=memory_mb)
        self.container: Container | None = None

    def _launch(self) -> list[str]:
        self._discard()
        settings: dict[str, Any] = {
            **host_config(self.limits), "user": NOBODY, "cap_add": [],
            "volumes": {self.code: {"bind": CODE, "mode": "ro"},
                        self.cwd: {"bind": AGENT, "mode": "ro"}},
            "mounts": docker_code.mounts(self.client, image.default_tag(), labels()),
            "labels": labels("agent"), "working_dir": AGENT,
            "entrypoint": ["python3", "-I", "-B", f"{CODE}/grader/harness/agent/runner.py"],
        }
        self.container = self.client.containers.create(image.default_tag(), self.argv,
                                                       **settings)
        return ["docker", "start", "-ai", str(self.container.id)]

    def _command(self) -> list[str]:
        return self._launch()  # the engine starts the container in a group of its own

    def _clock(self, process: subprocess.Popen[bytes]) -> clock.Clock:
        """The container's clock, once its first process runs (its pid from the
        engine's inspect data); a clock of nothing if it never started."""
        assert self.container is not None
        deadline = time.monotonic() + START_SECONDS
        pid = 0
        while not pid and process.poll() is None and time.monotonic() < deadline:
            self.container.reload()
            pid = int(self.container.attrs["State"].get("Pid") or 0)
            time.sleep(0 if pid else 0.01)
        why = cgroups.available()
        if why is not None:
            clock.without_groups(why)
        elif pid:
            try:
                return clock.GroupClock(cgroups.of_container(pid, str(self.container.id)))
            except (OSError, cgroups.NoGroups):  # ended meanwhile: its first request says so
                pass
        return clock.TreeClock(pid)

    def _discard(self) -> None:
        if self.container is not None:
            try:
                self.container.remove(force=True)
            except Exception:  # gone already, or the engine is busy: the sweep takes it
                pass
            self.container = None

    def _kill(self) -> None:
        super()._kill()
        self._discard()

    def close(self) -> None:
        super().close()
        shutil.rmtree(self.code, ignore_errors=True)


def student(name: str, folder: str, class_name: str, memory_mb: int) -> ContainerAgent:
    """A student's agent, in ``folder`` (its agent.py), in containers of its own."""
    client = connect()
    code = copy_closure("grader.harness.agent.runner")
    return ContainerAgent(name, client, folder, code, class_name, memory_mb)
