"""A league spread over grading hosts: minimax-grader match-host processes take
its pairings from a real redis-server and play them in their own sandboxes;
the games are those a local run plays, and a second run sends nothing."""

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import skip_loudly

from grader.cli import main
from grader.sandbox import local
from tests.service.redis_server import started

AGENTS = Path(__file__).parents[1] / "agents"


@pytest.fixture
def broker(tmp_path):
    if shutil.which("redis-server") is None:
        skip_loudly("a league on grading hosts (Celery over Redis)", "no redis-server here")
    if not local.is_boundary() and os.geteuid() == 0:
        skip_loudly("agents in bubblewrap", "bwrap is not usable here")
    server = started(tmp_path)
    log = open(tmp_path / "host.log", "wb")
    host = subprocess.Popen([sys.executable, "-m", "grader", "match-host", "--broker", server.url,
                             "--concurrency", "2"], stdout=log, stderr=log,
                            start_new_session=True)
    try:
        yield server.url
    finally:
        os.killpg(host.pid, signal.SIGKILL)
        host.wait()
        log.close()
        server.stop()


def entries(folder: Path) -> Path:
    folder.mkdir()
    for name in ("weak", "crash", "illegal"):
        shutil.copy(AGENTS / f"{name}.py", folder / f"{name}.py")
    return folder


def games(outdir: Path) -> dict[str, list]:
    lines = (outdir / "games.jsonl").read_text().splitlines()[1:]
    return {g["id"]: [p["move"] for p in g["plies"]] + [g["winner"], g["reason"]]
            for g in map(json.loads, lines)}


def test_a_league_on_the_hosts_plays_the_games_a_local_one_does(tmp_path, broker):
    submissions = entries(tmp_path / "in")
    flags = ["--openings", "1", "--cpu-seconds", "1"]
    assert main(["league", str(submissions), "-o", str(tmp_path / "here"), *flags]) == 0
    spread = ["league", str(submissions), "-o", str(tmp_path / "hosts"), "--broker", broker]
    assert main([*spread, *flags]) == 0
    assert games(tmp_path / "hosts") == games(tmp_path / "here")
    assert len(games(tmp_path / "here")) == 6
    assert (json.loads((tmp_path / "hosts" / "leaderboard.json").read_text())
            == json.loads((tmp_path / "here" / "leaderboard.json").read_text()))
    before = (tmp_path / "hosts" / "games.jsonl").read_text()
    assert main([*spread, *flags]) == 0
    assert (tmp_path / "hosts" / "games.jsonl").read_text() == before
