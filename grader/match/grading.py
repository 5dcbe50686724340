"""Grading an agent by play: against each baseline of the exercise's
match.toml, the win rate with its Wilson interval, and the points it earns.

An opponent's points are earned whole at its win-rate threshold and in
proportion below it (half the threshold, half the points).
"""

import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.games.knights.rules import VARIANTS
from grader.match import CONFIG, baselines, referee, sandbox, tournament
from grader.match.player import Agent, Limits
from grader.match.referee import Game

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


class BadConfig(ValueError):
    """A match.toml that does not say what grading needs."""


@dataclass(frozen=True)
class Opponent:
    name: str
    baseline: str  # a key of baselines.BASELINES
    win_rate: float  # the threshold for full points
    points: float


@dataclass(frozen=True)
class Config:
    title: str
    file: str  # what the student hands in
    agent_class: str
    settings: tournament.Settings
    opponents: tuple[Opponent, ...]


def load(path: Path = CONFIG, **changes: Any) -> Config:
    """The match.toml at ``path``; ``changes`` override its [match] table."""
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    try:
        match = {**data["match"], **{k: v for k, v in changes.items() if v is not None}}
        limits = Limits(float(match["cpu_seconds"]),
                        float(match.get("wall_factor", Limits.wall_factor)))
        settings = tournament.Settings(match["game"], int(match["seed"]), int(match["openings"]),
                                       limits)
        opponents = tuple(Opponent(**entry) for entry in data["opponents"])
        config = Config(data["title"], data["file"], data.get("class", "Agent"), settings,
                        opponents)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadConfig(f"{path}: {exc!r}") from None
    if settings.variant not in VARIANTS:
        raise BadConfig(f"{path}: game {settings.variant!r}; the games are: {', '.join(VARIANTS)}")
    unknown = [o.baseline for o in opponents if o.baseline not in baselines.BASELINES]
    if unknown or limits.cpu_seconds <= 0 or limits.wall_factor < 1 or settings.openings < 1:
        raise BadConfig(f"{path}: unknown baselines {unknown} or limits out of range")
    return config


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    middle = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    return max(0.0, middle - half), min(1.0, middle + half)


@dataclass(frozen=True)
class Standing:
    opponent: Opponent
    games: tuple[Game, ...]
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / len(self.games) if self.games else 0.0

    @property
    def points(self) -> float:
        share = min(1.0, self.rate / self.opponent.win_rate) if self.opponent.win_rate else 1.0
        return round(self.opponent.points * share, 2)


def standings(name: str, config: Config, games: Sequence[Game]) -> list[Standing]:
    found = []
    for opponent in config.opponents:
        theirs = tuple(g for g in games if opponent.name in g.names and name in g.names)
        wins = sum(1 for g in theirs if g.winner is not None and g.names[g.winner] == name)
        found.append(Standing(opponent, theirs, wins))
    return found


def lost_game(name: str, table: Sequence[Standing]) -> Game | None:
    """The game to replay: a loss to the weakest opponent that beat the agent,
    the shortest of them (the plainest lesson)."""
    for standing in table:
        lost = [g for g in standing.games if g.loser() == name]
        if lost:
            return min(lost, key=lambda g: len(g.plies))
    return None


def grade(source: Path, config: Config, sandbox_name: str, store: Path,
          jobs: int = 1) -> list[Standing]:
    """Play the agent in ``source`` against every opponent; its standings."""
    name = "agent"

    def make(who: str) -> Agent:
        if who == name:
            return sandbox.student(name, source, config.agent_class, sandbox_name)
        return sandbox.baseline(next(o.baseline for o in config.opponents if o.name == who))

    kept = tournament.Store(store, config.settings)
    pairings = [(name, opponent.name) for opponent in config.opponents]
    games = tournament.play(pairings, make, config.settings, kept, jobs)
    return standings(name, config, games)


def to_json(name: str, config: Config, table: Sequence[Standing]) -> dict[str, Any]:
    lost = lost_game(name, table)
    return {
        "title": config.title,
        "points": round(sum(s.points for s in table), 2),
        "max_points": sum(o.points for o in config.opponents),
        "opponents": [{
            "name": s.opponent.name, "games": len(s.games), "wins": s.wins,
            "win_rate": round(s.rate, 4),
            "interval": [round(v, 4) for v in wilson(s.wins, len(s.games))],
            "threshold": s.opponent.win_rate, "points": s.points, "max_points": s.opponent.points,
            "losses": {g.id: g.reason for g in s.games if g.loser() == name},
        } for s in table],
        "lost_game": lost.to_json() if lost else None,
    }


def to_text(name: str, config: Config, table: Sequence[Standing]) -> str:
    settings = config.settings
    total, most = sum(s.points for s in table), sum(o.points for o in config.opponents)
    lines = [f"{config.title}: {total:.2f} / {most:g} points",
             f"{settings.variant}, {settings.limits.cpu_seconds:g} s of CPU time a move (a move "
             f"past it loses the game), {2 * settings.openings} games an opponent, seed "
             f"{settings.seed}", "",
             f"{'opponent':<12}{'won':>8}{'rate':>7}{'95% interval':>15}{'needs':>7}{'points':>13}"]
    for s in table:
        low, high = wilson(s.wins, len(s.games))
        lines.append(f"{s.opponent.name:<12}{f'{s.wins}/{len(s.games)}':>8}{s.rate:>7.0%}"
                     f"{f'{low:.0%}-{high:.0%}':>15}{s.opponent.win_rate:>7.0%}"
                     f"{f'{s.points:.2f} / {s.opponent.points:g}':>13}")
    faults = [(g.id, g.reason) for s in table for g in s.games
              if g.loser() == name and not g.reason.endswith("had no move left")]
    if faults:
        lines += ["", "Games lost by a fault (each costs that game only):"]
        lines += [f"  {game_id}: {reason}" for game_id, reason in faults]
    lost = lost_game(name, table)
    if lost:
        lines += ["", "One lost game, move by move:", "", referee.replay(lost)]
        if name in lost.output:
            lines += ["", "What the agent printed in that game (capped):", lost.output[name]]
    return "\n".join(lines)
