"""A league's pairings spread over grading hosts through Celery (Redis as the
broker and the result backend): ``league --broker URL`` sends each pairing
the store lacks, with both agents' files, to ``minimax-grader match-host``,
which plays it in its own sandbox and sends the games back; the games are
kept as they come, so a stopped run resumes as a local one does.

At least once, as the grading jobs are: acknowledged after the pairing is
played, given back if the host dies. A pairing played twice gives the same
games' ids, and the store keeps one of each.
"""

import base64
import os
import socket
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from celery import Celery  # type: ignore[import-untyped]  # no type hints
from prometheus_client import CollectorRegistry, Counter

from grader import image
from grader.games.knights.rules import new_board
from grader.hosting import hosts
from grader.hosting.watch import PLAIN, Watch
from grader.match import launch, tournament
from grader.match.player import Agent
from grader.match.referee import Game

TASK = "grader.match.pairing"
# A queue of its own: a grading host's worker (``minimax-grader worker``) on the same
# broker takes the grading jobs, and would drop a pairing as a task it does not know.
QUEUE = "minimax-grader-match"
RESULT_SECONDS = 24 * 3600  # a pairing's games wait this long in Redis for the league
SANDBOX = ["local"]  # where this host plays: its own choice (match-host --sandbox)
# What a match host counts (match-host --metrics-port).
REGISTRY = CollectorRegistry()
PAIRINGS = Counter("minimax_grader_pairings", "League pairings played on this host",
                   registry=REGISTRY)
GAMES = Counter("minimax_grader_games", "League games played on this host",
                registry=REGISTRY)


def make_app(broker: str) -> Celery:
    app = Celery("minimax-grader-match", broker=broker, backend=broker, set_as_current=False)
    app.conf.update(task_acks_late=True, task_reject_on_worker_lost=True,
                    worker_prefetch_multiplier=1, result_expires=RESULT_SECONDS,
                    broker_connection_retry_on_startup=True, task_default_queue=QUEUE,
                    worker_hijack_root_logger=False)  # match-host's own log stays
    app.task(name=TASK)(play_pairing)
    return app


def play_pairing(first: str, second: str, files: dict[str, dict[str, str]],
                 settings: dict[str, Any], class_name: str) -> list[dict[str, Any]]:
    """The task: a pairing's games, as JSON, played on this host in its sandbox
    (``files``: each agent's files by name, in base64)."""
    chosen = tournament.Settings.from_json(settings)
    with tempfile.TemporaryDirectory(prefix="minimax-pairing-") as temp:
        for name, given in files.items():
            folder = Path(temp) / f"{len(name)}-{name.encode().hex()}"
            folder.mkdir()
            for file, data in given.items():
                (folder / Path(file).name).write_bytes(base64.b64decode(data))

        def make(who: str) -> Agent:
            folder = Path(temp) / f"{len(who)}-{who.encode().hex()}"
            return launch.student(who, folder, class_name, SANDBOX[0])

        store = tournament.Store(Path(temp) / "games.jsonl", chosen)
        games = tournament.play_pairing(first, second, make, chosen, store)
    PAIRINGS.inc()
    GAMES.inc(len(games))
    return [game.to_json() for game in games]


def play(app: Celery, pairings: Sequence[tuple[str, str]], students: dict[str, Path],
         settings: tournament.Settings, store: tournament.Games, class_name: str) -> list[Game]:
    """All games of ``pairings``, those the store lacks played on the hosts."""
    sent = []
    for first, second in pairings:
        ids = [entry[0] for entry in tournament.game_ids(first, second, settings.openings)]
        if any(game_id not in store.games for game_id in ids):
            files = {who: {file: base64.b64encode(data).decode()
                           for file, data in launch.modules(students[who]).items()}
                     for who in (first, second)}
            sent.append(app.send_task(TASK, args=(first, second, files, asdict(settings),
                                                  class_name)))
    # The longest a pairing can take: every move of every game at the backstop, each
    # game played as often as a void one is.
    longest = 2 * settings.openings * len(new_board(settings.variant).open_cells()) * \
        settings.limits.backstop_seconds * (1 + tournament.RETRIES)
    for result in sent:
        for data in result.get(timeout=longest + 60):
            game = Game.from_json(data)
            if game.id not in store.games:
                store.add(game)
    return [store.games[entry[0]] for first, second in pairings
            for entry in tournament.game_ids(first, second, settings.openings)]


def host(broker: str, concurrency: int, sandbox_name: str, watch: Watch = PLAIN) -> int:
    """Play the pairings sent to ``broker`` in ``sandbox_name`` until stopped, beating
    in the broker as a match host (see ``grader.hosting.hosts``)."""
    SANDBOX[0] = sandbox_name
    watch.start_log()
    watch.expose(REGISTRY)
    played_with = image.default_tag() if sandbox_name == "docker" else sandbox_name
    beacon = hosts.Beacon(hosts.client(broker), "match", f"{socket.gethostname()}:{os.getpid()}",
                          lambda: {"image": played_with, "slots": concurrency}).start()
    try:
        make_app(broker).worker_main(["worker", "--pool", "threads", "--concurrency",
                                      str(concurrency), "--loglevel", "INFO"])
    finally:
        beacon.stop()
    return 0
