"""A `match` stopped from outside leaves no player behind: SIGINT and SIGTERM close
every agent before the command ends (processes, groups, containers gone, no game
the stop cut short kept); after SIGKILL its watcher kills and removes its groups
at once, frozen players too, and a Docker agent's containers go at the next
command's sweep. Bounds are generous for a loaded machine; nothing here is timed."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import skip_loudly

from grader.match import clock
from grader.sandbox import cgroups, local
from grader.sandbox.containers import LABEL

AGENTS = Path(__file__).parent / "agents"
BOUND = 120  # seconds: far above what any of this takes on a quiet machine


@pytest.fixture(autouse=True)
def groups():
    if not local.is_boundary() and os.geteuid() == 0:
        skip_loudly("agents in bubblewrap", "bwrap is not usable here")
    if cgroups.available() is not None:
        skip_loudly("a stopped match's groups", cgroups.available())


def _poll(done, what):
    deadline = time.monotonic() + BOUND
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _folders(command):
    return [f for f in cgroups.ours() if f.name.startswith(f"{cgroups.PREFIX}{command.pid}-")]


def _in(folder, name):
    try:
        return (folder / name).read_text()
    except OSError:  # removed meanwhile
        return ""


def _players(command):
    """The living processes in the command's groups, found from every process's
    own group (what a SIGKILLed command's children keep once they are orphans)."""
    mark = f"/{cgroups.PREFIX}{command.pid}-"
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and mark in (proc / "cgroup").read_text() and \
                    (proc / "stat").read_text().rsplit(")", 1)[1].split()[0] not in "ZX":
                found.append(int(proc.name))
        except OSError:  # ended while read
            pass
    return found


def _frozen(command):
    """Whether the student's sandboxed agent (the group of more than one process:
    bubblewrap's layers and the agent) is frozen between its moves (v2)."""
    return any(_in(f, "cgroup.freeze").strip() == "1" and len(_in(f, "cgroup.procs").split()) > 1
               for f in _folders(command))


def _match_in_play(tmp_path, *flags, playing=_frozen):
    """A match of the weak agent, once its agents play: by default, once one of
    them is frozen between its moves (what no end of input can end)."""
    command = subprocess.Popen(
        [sys.executable, "-m", "grader", "match", str(AGENTS / "weak.py"), "--openings", "2",
         "--cpu-seconds", "0.5", "--jobs", "2", "--games", str(tmp_path / "games.jsonl"),
         *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _poll(lambda: command.poll() is not None or playing(command),
          "the match's agents never started")
    assert command.poll() is None, "the match ended before it could be stopped"
    time.sleep(1)
    return command


def _stored(tmp_path):
    games = tmp_path / "games.jsonl"
    lines = games.read_text().splitlines()[1:] if games.exists() else []
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_sigint_and_sigterm_close_every_agent_before_the_command_ends(tmp_path, number):
    command = _match_in_play(tmp_path)
    seen = _players(command)
    command.send_signal(number)
    assert command.wait(BOUND) == 128 + number
    assert not _folders(command)  # every group removed, none left frozen
    assert not _players(command)
    assert not [pid for pid in seen if Path(f"/proc/{pid}").exists()
                and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                not in "ZX"]
    # The stop killed agents mid-game: those games are not kept as their crashes.
    assert not [g for g in _stored(tmp_path) if "crashed" in g.get("reason", "")]


def _grade_in_play(tmp_path):
    """A `grade` of the weak agent (the exercise's quick self-check), once one of
    its agents is frozen between its moves."""
    (tmp_path / "agent.py").write_bytes((AGENTS / "weak.py").read_bytes())
    command = subprocess.Popen(
        [sys.executable, "-m", "grader", "grade", "--exercise", "agent", "--sandbox", "local",
         "--quick", str(tmp_path / "agent.py")], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    _poll(lambda: command.poll() is not None or _frozen(command),
          "the grade's agents never started")
    assert command.poll() is None, "the grade ended before it could be stopped"
    return command


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_grade_stopped_or_killed_leaves_no_process_and_no_group(tmp_path, number):
    command = _grade_in_play(tmp_path)
    command.send_signal(number)
    command.wait()
    try:
        _poll(lambda: not _players(command) and not _folders(command),
              "a stopped grade's players or groups outlived it")
    finally:
        clock.sweep()


def test_sigkill_leaves_no_process_and_no_group_without_waiting_for_a_sweep(tmp_path):
    command = _match_in_play(tmp_path)
    command.kill()
    command.wait()
    try:
        # No sweep: the command's watcher ends them, frozen ones too, and their groups.
        _poll(lambda: not _players(command) and not _folders(command),
              "a killed match's players or groups outlived it")
    finally:
        clock.sweep()  # on failure, what the next match, grade or league does first


def _containers(client, command, **filters):
    return client.containers.list(all=True, filters={
        "label": [f"{LABEL}=agent", f"{LABEL}.owner={socket.gethostname()}:{command.pid}"],
        **filters})


def _in_docker(tmp_path, client):
    return _match_in_play(tmp_path, "--sandbox", "docker", "--jobs", "1", playing=lambda c:
                          bool(_containers(client, c, status="running")))


def test_sigterm_removes_a_docker_agents_containers_at_once(tmp_path, docker_client):
    command = _in_docker(tmp_path, docker_client)
    command.terminate()
    assert command.wait(BOUND) == 128 + signal.SIGTERM
    assert not _containers(docker_client, command)
    assert not _players(command)


def test_a_killed_docker_match_leaves_containers_the_next_start_sweeps(tmp_path,
                                                                        docker_client):
    from grader.sandbox import containers

    command = _in_docker(tmp_path, docker_client)
    command.kill()
    command.wait()
    # Its containers stay until a sweep (another command's on this engine may come first).
    containers.sweep(docker_client)  # what the next command's Docker sandbox does first
    assert not _containers(docker_client, command)
