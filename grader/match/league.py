"""A league: every student's latest agent against every other (round robin),
from the same fair openings, ratings by openskill.

Ratings are computed from the games in a fixed order (the pairings' order,
then the games'), so that the same games always give the same table. A
student whose file changed since the last run plays all of their games again:
what is kept of a run is only what its agents still are.
"""

import hashlib
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from grader.match import launch, tournament
from grader.match.config import Config
from grader.match.player import Agent
from grader.match.referee import Game

SCHEMA = Path(__file__).resolve().parents[1] / "schema" / "league.schema.json"
NO_START = " could not start: "  # an agent's fault at its start, after its name


@dataclass(frozen=True)
class Row:
    name: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what the table is sorted by
    games: int
    wins: int
    losses: int  # the rest of its games had no result: neither agent started
    faults: int  # games lost by a fault (time, illegal move, a raise, a crash, a flood)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def entries(submissions: Path, file: str) -> dict[str, Path]:
    """Each student's agent: the folder SUBMISSIONS/<student>/ holding <file> (and
    the modules beside it), or the file SUBMISSIONS/<student>.py."""
    found = {}
    for entry in sorted(submissions.iterdir()):
        if entry.is_dir() and (entry / file).is_file():
            found[entry.name] = entry
        elif entry.is_file() and entry.suffix == ".py":
            found[entry.stem] = entry
    return found


def _fingerprints(students: dict[str, Path]) -> dict[str, str]:
    return {name: hashlib.sha256(json.dumps(sorted(
        (file, data.hex()) for file, data in launch.modules(path).items())).encode()).hexdigest()
        for name, path in students.items()}


def _forget_changed(outdir: Path, students: dict[str, Path]) -> None:
    """Drop the stored games of the students whose file changed (or who left)."""
    known, now = outdir / "agents.json", _fingerprints(students)
    before = json.loads(known.read_text()) if known.exists() else {}
    changed = {name for name, digest in before.items() if now.get(name) != digest}
    games = outdir / "games.jsonl"
    if changed and games.exists():
        header, *lines = games.read_text(encoding="utf-8").splitlines()
        kept = [line for line in lines
                if not changed & set(json.loads(line).get("names", ()))]
        games.write_text("\n".join([header, *kept]) + "\n", encoding="utf-8")
    known.write_text(json.dumps(now, indent=1, sort_keys=True))


def is_fault(game: Game) -> bool:
    return game.winner is not None and not game.reason.endswith("had no move left")


def table(names: Sequence[str], games: Sequence[Game]) -> list[Row]:
    """The leaderboard: openskill's Plackett-Luce ratings from ``games`` in order."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for game in games:
        if game.winner is None:
            continue
        winner, loser = game.names[game.winner], game.names[game.winner ^ 1]
        [[ratings[winner]], [ratings[loser]]] = model.rate([[ratings[winner]], [ratings[loser]]])
    rows = []
    for name in names:
        played = [g for g in games if name in g.names]
        lost = [g for g in played if g.loser() == name]
        rows.append(Row(name, ratings[name].mu, ratings[name].sigma, ratings[name].ordinal(),
                        len(played), sum(1 for g in played if g.winner is not None
                                         and g.names[g.winner] == name),
                        len(lost), sum(1 for g in lost if is_fault(g))))
    return sorted(rows, key=lambda row: (-row.ordinal, row.name))


RATING = ("Each agent's rating is openskill's (Plackett-Luce) estimate of its skill, mu, "
          "less three times its uncertainty, sigma: a rating it has shown with confidence. "
          "An agent with fewer games, or with results that vary more, has a larger sigma, "
          "so it may rank below one with fewer wins.")


def started(name: str, games: Sequence[Game]) -> tuple[str, str | None]:
    """Whether ``name``'s agent started in any of its ``games`` ("played"), in none
    ("could not start", with the reason of one), or had none ("no games")."""
    played = [g for g in games if name in g.names]
    if not played:
        return "no games", None
    alone = [g.reason.removeprefix(name + NO_START) for g in played
             if g.reason.startswith(name + NO_START)]
    both = [g.reason for g in played if g.winner is None and not g.void
            and g.reason.startswith("neither agent started")]
    if len(alone) + len(both) < len(played):
        return "played", None
    return "could not start", (alone or both)[0]


def report(config: Config, rows: Sequence[Row], games: Sequence[Game]) -> dict[str, Any]:
    """``league --format json``'s report (grader/schema/league.schema.json): the
    standings, best first, each student's status and, where their agent could
    not start, why."""
    standings = []
    for rank, row in enumerate(rows, 1):
        status, reason = started(row.name, games)
        standings.append({"rank": rank, "name": row.name, "status": status, "reason": reason,
                          "rating": row.ordinal, "mu": row.mu, "sigma": row.sigma,
                          "games": row.games, "wins": row.wins, "losses": row.losses,
                          "faults": row.faults, "win_rate": row.win_rate})
    from jsonschema import Draft202012Validator  # only where a report is made

    made = {"schema_version": 1, "title": config.title, "openings": config.settings.openings,
            "exercise_openings": config.exercise_openings or config.settings.openings,
            "bounded": config.bounded, "rating": RATING, "standings": standings}
    Draft202012Validator(json.loads(SCHEMA.read_text())).validate(made)
    return made


def head_to_head(names: Sequence[str], games: Sequence[Game]) -> dict[str, dict[str, list[int]]]:
    """Each agent's [wins, losses] against each other one (a game with no result
    counts for neither)."""
    table = {name: {other: [0, 0] for other in names if other != name} for name in names}
    for game in games:
        if game.winner is not None:
            winner, loser = game.names[game.winner], game.names[game.winner ^ 1]
            table[winner][loser][0] += 1
            table[loser][winner][1] += 1
    return table


def run(submissions: Path, outdir: Path, config: Config, sandbox_name: str,
        jobs: int = 1, broker: str | None = None) -> tuple[list[Row], list[Game]]:
    """Play the league among the agents in ``submissions``, keeping its games in
    ``outdir`` (played again only where missing), here or on the grading hosts
    of ``broker``; its table and games."""
    students = entries(submissions, config.file)
    outdir.mkdir(parents=True, exist_ok=True)
    _forget_changed(outdir, students)
    store = tournament.Store(outdir / "games.jsonl", config.settings)
    games = play(students, config, store, sandbox_name, jobs, broker)
    return table(sorted(students), games), games


def play(students: dict[str, Path], config: Config, store: tournament.Games, sandbox_name: str,
         jobs: int = 1, broker: str | None = None) -> list[Game]:
    """The round robin among ``students`` (each one's agent file), the games ``store``
    lacks played here or on the grading hosts of ``broker``: all its games."""

    def make(who: str) -> Agent:
        return launch.student(who, students[who], config.agent_class, sandbox_name)

    pairings = list(itertools.combinations(sorted(students), 2))
    if broker:
        from grader.match import spread  # Celery: the service extra

        return spread.play(spread.make_app(broker), pairings, students, config.settings,
                           store, config.agent_class)
    return tournament.play(pairings, make, config.settings, store, jobs)
