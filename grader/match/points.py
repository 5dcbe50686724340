"""Grading an agent by play: against each baseline of the exercise's
match.toml, the win rate with its Wilson interval, and the points it earns.

Points come from the evidence, not from one lucky game: an opponent's points
are earned whole when the interval's lower bound reaches its threshold, not at
all when the upper bound is below it, and in between in proportion to the part
of the interval at or above the threshold. A pairing ends as soon as its games
so far settle that (whole or none), after any opening played from both sides;
else it plays all its openings.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.exercises import Opponent
from grader.match import launch, referee, tournament
from grader.match.config import Config

# The match.toml is read apart (grader.match.config: no sandbox); its readers find it here too.
from grader.match.player import Agent, Deadline
from grader.match.referee import Game
from grader.sandbox import cgroups

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
# A pairing stops once settled, but never before this many games: looked at after
# every opening, the interval of two games (2 of 2 "shows" 34%) would pay a lucky
# pair in full, where three openings show what an agent is (4 of 6: 30%).
SETTLED_AFTER = 6
RULE = ("Points: whole when the 95% interval's lower bound reaches the opponent's threshold "
        "(\"needs\"), none when its upper bound is below it, and in between the part of the "
        "interval at or above it; an opponent's games stop once they settle that (after 6 "
        "games at the least).")


class NoStart(Exception):
    """The agent could not start (its files don't load, no class, its making raised):
    one error, no game played."""


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    middle = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    half /= 1 + z * z / games
    return max(0.0, middle - half), min(1.0, middle + half)


def share(wins: int, games: int, threshold: float) -> float:
    """The share of an opponent's points that ``wins`` of ``games`` earn: the part of
    their 95% interval at or above ``threshold`` (1 where all of it is, 0 where none)."""
    low, high = wilson(wins, games)
    if low >= threshold:
        return 1.0
    if high < threshold:
        return 0.0
    return (high - threshold) / (high - low)


@dataclass(frozen=True)
class Standing:
    opponent: Opponent
    games: tuple[Game, ...]  # those played to their end: the ones counted
    wins: int
    void: tuple[Game, ...] = ()  # not played to their end however often tried: not counted

    @property
    def rate(self) -> float:
        return self.wins / len(self.games) if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, len(self.games))

    @property
    def share(self) -> float:
        return share(self.wins, len(self.games), self.opponent.win_rate)

    @property
    def points(self) -> float:
        return round(self.opponent.points * self.share, 2)

    @property
    def settled(self) -> bool:
        """Whether the games decide the points whole or none (the pairing may stop):
        not before ``SETTLED_AFTER`` games, however clear the first look."""
        # the interval's share, not points rounded to 0
        return len(self.games) >= SETTLED_AFTER and self.share in (0.0, 1.0)


def standing(name: str, opponent: Opponent, games: Sequence[Game]) -> Standing:
    theirs = [g for g in games if opponent.name in g.names and name in g.names]
    counted = tuple(g for g in theirs if not g.void)
    wins = sum(1 for g in counted if g.winner is not None and g.names[g.winner] == name)
    return Standing(opponent, counted, wins, tuple(g for g in theirs if g.void))


def standings(name: str, config: Config, games: Sequence[Game]) -> list[Standing]:
    return [standing(name, opponent, games) for opponent in config.opponents]


def lost_game(name: str, table: Sequence[Standing]) -> Game | None:
    """The game to replay: a loss to the weakest opponent that beat the agent,
    the shortest of them (the plainest lesson)."""
    for standing in table:
        lost = [g for g in standing.games if g.loser() == name]
        if lost:
            return min(lost, key=lambda g: len(g.plies))
    return None


def started(agent: Agent, variant: str) -> None:
    """NoStart unless ``agent`` starts (its files load and it is made); then closed."""
    try:
        answer = agent.new_game(variant, 0, 0)
    finally:
        agent.close()
    if answer.fault is not None and answer.charged:
        raise NoStart(answer.fault.removeprefix("could not start: "))


def grade(source: Path, config: Config, sandbox_name: str, store: Path,
          jobs: int = 1) -> list[Standing]:
    """Play the agent in ``source`` (its file, or the folder of its modules) against
    every opponent, ``jobs`` games at once, each pairing until it is settled; its
    standings. Past the match's deadline, the agent's games left are lost; an agent
    that can't start plays none (NoStart)."""
    name = "agent"
    deadline = Deadline(config.deadline_seconds) if config.deadline_seconds else None
    started(launch.student(name, source, config.agent_class, sandbox_name),
            config.settings.variant)

    def make(who: str) -> Agent:
        if who == name:
            agent = launch.student(name, source, config.agent_class, sandbox_name)
            agent.deadline = deadline
            return agent
        return launch.baseline(next(o.baseline for o in config.opponents if o.name == who))

    return play(name, config, make, tournament.Store(store, config.settings), jobs)


def play(name: str, config: Config, make: Callable[[str], Agent], store: tournament.Games,
         jobs: int = 1) -> list[Standing]:
    """The agent ``name`` against every opponent of ``config`` (each agent made by
    ``make``), ``jobs`` games at once, each pairing until it is settled; its standings."""

    def decided(games: Sequence[Game]) -> bool:
        against = next(o for o in config.opponents if o.name in games[0].names)
        return standing(name, against, games).settled

    pairings = [(name, opponent.name) for opponent in config.opponents]
    games = tournament.play(pairings, make, config.settings, store, jobs, decided)
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
            "interval": [round(v, 4) for v in s.interval],
            "threshold": s.opponent.win_rate, "points": s.points, "max_points": s.opponent.points,
            "losses": {g.id: g.reason for g in s.games if g.loser() == name},
            "void": {g.id: g.reason for g in s.void},
        } for s in table],
        "lost_game": lost.to_json() if lost else None,
    }


def _clock_notice() -> list[str]:
    """A line saying how agents are timed, where it is not by their control groups."""
    why = cgroups.available()
    return [] if why is None else [
        f"Timed from /proc, not by control groups ({why}): CPU hidden in auto-reaped "
        "children is not seen, agents are not frozen between moves."]


def to_text(name: str, config: Config, table: Sequence[Standing]) -> str:
    settings = config.settings
    total, most = sum(s.points for s in table), sum(o.points for o in config.opponents)
    deadline = (f", {config.deadline_seconds:g} s of the agent's own time in all (past it, "
                "the games left are lost)" if config.deadline_seconds else "")
    lines = [f"{config.title}: {total:.2f} / {most:g} points",
             f"{settings.variant}, {settings.limits.cpu_seconds:g} s of CPU time a move (a move "
             f"past it loses the game){deadline}, {2 * settings.openings} games an opponent, "
             f"seed {settings.seed}", *_clock_notice(), "",
             f"{'opponent':<12}{'won':>8}{'rate':>7}{'95% interval':>15}{'needs':>7}{'points':>13}"]
    for s in table:
        low, high = s.interval
        lines.append(f"{s.opponent.name:<12}{f'{s.wins}/{len(s.games)}':>8}{s.rate:>7.0%}"
                     f"{f'{low:.0%}-{high:.0%}':>15}{s.opponent.win_rate:>7.0%}"
                     f"{f'{s.points:.2f} / {s.opponent.points:g}':>13}")
    faults = [(g.id, g.reason) for s in table for g in s.games
              if g.loser() == name and not g.reason.endswith("had no move left")]
    if faults:
        lines += ["", "Games lost by a fault (each costs that game only):"]
        lines += [f"  {game_id}: {reason}" for game_id, reason in faults]
    void = [g for s in table for g in s.void]
    if void:
        lines += ["", "Games not played to their end, each tried "
                  f"{1 + tournament.RETRIES} times (not counted; the machine was too busy):"]
        lines += [f"  {g.id}: {g.reason}" for g in void]
    lost = lost_game(name, table)
    if lost:
        lines += ["", "One lost game, move by move:", "", referee.replay(lost)]
        if name in lost.output:
            lines += ["", "What the agent printed in that game (capped):", lost.output[name]]
    return "\n".join(lines)
