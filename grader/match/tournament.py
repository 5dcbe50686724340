"""Many games: fair openings fixed by a seed, every pairing played from both
sides, games spread over threads, results kept as they come (resumable), and
a pairing stopped once its first games settle it (a sequential test, given).

Each thread gets agent processes of its own (``make``), closed at the end, so
that games run side by side and a fault in one touches no other.
The store is a JSON-lines file headed by what the games were played under: a
run with other settings is refused instead of mixed in, and a run with the
same settings plays only the games the store lacks. A void game (its move ended
by the backstop through no fault of the agent's) is played again, up to
``RETRIES`` times, and again when a run is resumed.
"""

import hashlib
import json
import os
import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from grader.games.knights.rules import new_board
from grader.match import referee
from grader.match.player import Agent, Limits
from grader.match.referee import Game, Move

RETRIES = 2  # more plays of a game found void, before it is kept void


@dataclass(frozen=True)
class Settings:
    """What makes a set of games what it is: repeat it with the same and it
    plays the same openings with the same seeds."""

    variant: str
    seed: int
    openings: int  # per pairing, each played from both sides
    limits: Limits

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Settings":
        """Settings from their ``asdict``: as a store's header or a task carries them."""
        return cls(**{**data, "limits": Limits(**data["limits"])})


class StoreMismatch(ValueError):
    """A store of games played under other settings."""


def openings(variant: str, seed: int, count: int) -> list[list[Move]]:
    """``count`` openings: each player's first move, drawn from ``seed``."""
    draw = random.Random(f"openings {variant} {seed}")
    found = []
    for _ in range(count):
        state, moves = new_board(variant), []
        for _ in range(2):
            moves.append(draw.choice(state.get_legal_moves()))
            state = state.forecast_move(moves[-1])
        found.append(moves)
    return found


def game_ids(first: str, second: str, count: int) -> list[tuple[str, str, str, int]]:
    """The games of a pairing: (id, who moves first, who second, opening), each
    opening from both sides."""
    return [(f"{a} v {b} #{i + 1}", a, b, i) for i in range(count)
            for a, b in ((first, second), (second, first))]


def game_seed(seed: int, game_id: str) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed} {game_id}".encode()).digest()[:4], "big")


class Games(Protocol):
    """Where a tournament keeps its games as they end, and finds those it has: a
    ``Store`` file here, the service's database there."""

    games: dict[str, Game]

    def add(self, game: Game) -> None: ...


class Store:
    """Games as JSON lines after a header line of settings; each line is flushed
    to disk as its game ends."""

    def __init__(self, path: Path, settings: Settings) -> None:
        self.path, self.lock = path, threading.Lock()
        header = {"settings": asdict(settings)}
        self.games: dict[str, Game] = {}
        if path.exists() and path.stat().st_size:
            lines = path.read_text(encoding="utf-8").splitlines()
            if json.loads(lines[0]) != header:
                raise StoreMismatch(f"{path} holds games played under other settings: "
                                    f"{lines[0]}")
            for line in lines[1:]:
                try:
                    game = Game.from_json(json.loads(line))
                except (ValueError, TypeError, KeyError):
                    continue  # a line cut short when a run was stopped: played again
                self.games[game.id] = game
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._append(header)

    def _append(self, data: object) -> None:
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(data) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def add(self, game: Game) -> None:
        with self.lock:
            self.games[game.id] = game
            self._append(game.to_json())


Decided = Callable[[Sequence[Game]], bool]  # whether a pairing's first games settle it


class _Pairing:
    """One pairing's games as they end, and where they stop: at the first opening
    (both its games) after which ``decided`` says the games so far settle it."""

    def __init__(self, ids: list[tuple[str, str, str, int]], store: Games,
                 decided: Decided | None) -> None:
        self.ids, self.store, self.decided = ids, store, decided
        self.stop: int | None = None
        self._look()

    def done(self, index: int) -> bool:
        game = self.store.games.get(self.ids[index][0])
        return game is not None and not game.void

    def _look(self) -> None:
        """Move the stop to the first settled opening of the games ended in order."""
        if self.decided is None:
            return
        ended = 0
        while ended < len(self.ids) and self.done(ended):
            ended += 1
        for end in range(2, ended + 1, 2):
            if self.decided(self.games(end)):
                self.stop = end
                return

    def wanted(self, index: int) -> bool:
        return (self.stop is None or index < self.stop) and not self.done(index)

    def ended(self) -> None:
        self._look()

    def games(self, end: int | None = None) -> list[Game]:
        return [self.store.games[game_id] for game_id, *_ in self.ids[:end]
                if game_id in self.store.games]


def play(pairings: Sequence[tuple[str, str]], make: Callable[[str], Agent], settings: Settings,
         store: Games, jobs: int = 1, decided: Decided | None = None) -> list[Game]:
    """The games of ``pairings``, ``jobs`` games at once (each thread with agent
    processes of its own), the pairings' games taken in turn so that all go on;
    a pairing ends early where ``decided`` says its first games settle it. The
    games counted, in the pairings' order (a game played past its pairing's
    stop, side by side with the one that settled it, is kept but not counted)."""
    starts = openings(settings.variant, settings.seed, settings.openings)
    each = [_Pairing(game_ids(a, b, settings.openings), store, decided) for a, b in pairings]
    order = [(pairing, index) for index in range(2 * settings.openings) for pairing in each]
    lock, local = threading.Lock(), threading.local()
    made: list[Agent] = []

    def agent(name: str) -> Agent:
        agents: dict[str, Agent] = local.__dict__.setdefault("agents", {})
        if name not in agents:
            agents[name] = make(name)
            with lock:
                made.append(agents[name])
        return agents[name]

    def one(task: tuple[_Pairing, int]) -> None:
        pairing, index = task
        with lock:
            if not pairing.wanted(index):
                return
        game_id, a, b, opening = pairing.ids[index]
        for _ in range(1 + RETRIES):
            game = referee.play(game_id, settings.variant, starts[opening],
                                (agent(a), agent(b)), settings.limits,
                                game_seed(settings.seed, game_id))
            if not game.void:
                break
        store.add(game)
        with lock:
            pairing.ended()

    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(one, order))
    finally:
        for each_agent in made:
            each_agent.close()
    return [game for pairing in each for game in pairing.games(pairing.stop)]


def play_pairing(first: str, second: str, make: Callable[[str], Agent], settings: Settings,
                 store: Games) -> list[Game]:
    """Every game of one pairing the store lacks, one after another; all its games."""
    return play([(first, second)], make, settings, store)
