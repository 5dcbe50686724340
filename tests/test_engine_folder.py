"""What the Docker engine binds into containers is made in the folder
MINIMAX_GRADER_ENGINE_DIR names (a unit's run-time folder: its own /tmp is
private, which the engine can't see), else in the temporary folder; a dead
host's folders there are swept."""

import subprocess
import tempfile
from pathlib import Path
from types import SimpleNamespace

from grader.contracts import places
from grader.sandbox import containers, launcher_sockets


def test_the_engines_folder_is_the_setting_else_the_temporary_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(places.ENGINE_DIR, raising=False)
    assert places.engine_folder() == Path(tempfile.gettempdir())
    monkeypatch.setenv(places.ENGINE_DIR, str(tmp_path))
    assert places.engine_folder() == tmp_path


def test_launcher_socket_folders_lie_in_the_engines_folder_and_a_dead_hosts_are_swept(
        tmp_path, monkeypatch):
    monkeypatch.setenv(places.ENGINE_DIR, str(tmp_path))
    mine = launcher_sockets.folder()
    assert mine.parent == tmp_path
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = tmp_path / f"{launcher_sockets.PREFIX}{dead.pid}-abc"
    left.mkdir()
    # An engine with no container of the grader's: only the folders are swept.
    engine = SimpleNamespace(containers=SimpleNamespace(list=lambda **_: []))
    assert containers.sweep(engine) == 0
    assert not left.exists() and mine.exists()
