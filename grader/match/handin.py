"""The agent exercise handed in like any other (the service's uploads, its queue,
its grading hosts) and graded by play: each opponent of its match.toml is a
"test" of the report, worth its points, and the report's output is the
match's text, with one lost game replayed move by move.

The exercise has no suite: ``grader.exercises`` lists it from its folder's
match.toml, and ``grade`` plays by that file instead of running tests. An agent
may be several modules (``intake.take_modules``), unpacked into one folder.
"""

import functools
import json
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from grader import __version__, exercises, layouts, report
from grader.exercises import Exercise
from grader.intake import Submission
from grader.layouts import Layout

# CONFIG: the agent exercise's, the league's
from grader.match import CONFIG, clock, launch, points, tournament
from grader.match.config import Config
from grader.match.config import load as load_config

MATCH_SCHEMA = Path(__file__).resolve().parents[1] / "schema" / "match.schema.json"
QUICK = {"openings": 2}  # a student's self-check: two openings an opponent, from both sides


def config(**changes: Any) -> Config:
    """The agent exercise's match.toml's settings (the league's), ``changes``
    (seed, openings, cpu_seconds) applied."""
    return load_config(CONFIG, **changes)


def exercise() -> Exercise:
    """The agent exercise (the league's) as the service lists it: one test an opponent."""
    return exercises.load(CONFIG.parent.name)


def unpack(files: Mapping[str, bytes], folder: Path) -> Path:
    """The agent's ``files`` written into ``folder``: the folder it plays from."""
    return launch.lay_out(dict(files), folder)


def _test(standing: points.Standing, name: str) -> dict[str, Any]:
    low, high = points.wilson(standing.wins, len(standing.games))
    opponent = standing.opponent
    faults = sum(1 for g in standing.games if g.loser() == name and
                 not g.reason.endswith("had no move left"))
    message = (f"won {standing.wins} of {len(standing.games)} ({standing.rate:.0%}, 95% "
               f"interval {low:.0%}-{high:.0%}); full points at {opponent.win_rate:.0%}")
    if faults:
        message += f"; {faults} lost by a fault (time, an illegal move, a raise, a crash)"

    return {"name": opponent.name, "title": f"Wins against {opponent.name}",
            "status": "passed" if standing.points >= opponent.points else "failed",
            "score": standing.points, "max_score": opponent.points, "visibility": "visible",
            "message": report.clean(message), "hint": None, "mistakes": [],
            "duration_ms": 0}


def _report(exercise: Exercise, handed: Submission, chosen: Config,
            table: Sequence[points.Standing], layout: Layout, started: float) -> report.Report:
    name = "agent"
    tests = [_test(standing, name) for standing in table]
    score = round(sum(t["score"] for t in tests), 2)
    text = points.to_text(name, chosen, table)
    return report.validate({
        "schema_version": 1, "grader_version": __version__, "exercise": exercise.id,
        "title": exercise.title, "status": "graded", "score": score,
        "max_score": exercise.max_score,
        "message": report.clean(f"{score:g}/{exercise.max_score:g} points by play"
                                + (f" ({chosen.bound()})" if chosen.bounded else "") + ": "
                                + "; ".join(f"{t['name']} {t['message']}" for t in tests)),
        "tests": tests, "notes": [],
        "output": {"text": report.clean(text, 1 << 16), "bytes": len(text.encode()),
                   "truncated": len(text) > 1 << 16},
        "submission": {"files": handed.manifest(), "ignored": handed.ignored},
        "sandbox": {**layouts.facts(layout), "limits": _limits(chosen)},
        "duration_ms": int((time.monotonic() - started) * 1000)})


def _unstarted(exercise: Exercise, handed: Submission, chosen: Config, why: str,
               layout: Layout, started: float) -> report.Report:
    """The report of an agent that could not start: one error, no game played."""
    message = report.clean(f"Your agent could not start, so no game was played: {why}")
    tests: list[dict[str, Any]] = [
        {"name": o.name, "title": f"Wins against {o.name}", "status": "failed", "score": 0,
         "max_score": o.points, "visibility": "visible",
         "message": "not played: the agent could not start", "hint": None, "mistakes": [],
         "duration_ms": 0} for o in chosen.opponents]
    return report.validate({
        "schema_version": 1, "grader_version": __version__, "exercise": exercise.id,
        "title": exercise.title, "status": "graded", "score": 0,
        "max_score": exercise.max_score, "message": message, "tests": tests, "notes": [],
        "output": {"text": message, "bytes": len(message.encode()), "truncated": False},
        "submission": {"files": handed.manifest(), "ignored": handed.ignored},
        "sandbox": {**layouts.facts(layout), "limits": _limits(chosen)},
        "duration_ms": int((time.monotonic() - started) * 1000)})


@functools.cache
def _match_validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(MATCH_SCHEMA.read_text()))


def match_report(chosen: Config, table: Sequence[points.Standing] = (),
                 why: str | None = None, ignored: Sequence[str] = ()) -> dict[str, Any]:
    """``match --format json``'s report (grader/schema/match.schema.json): the
    match's ``table``, or, with ``why``, an agent that could not start; ``ignored``:
    what the hand-in held that was left out, with the reasons."""
    played = points.to_json("agent", chosen, table) if why is None else {
        "title": chosen.title, "points": 0,
        "max_points": sum(o.points for o in chosen.opponents), "opponents": [],
        "lost_game": None}
    made = {"schema_version": 1, **played,
            "status": "played" if why is None else "could not start", "reason": why,
            "openings": chosen.settings.openings,
            "exercise_openings": chosen.exercise_openings or chosen.settings.openings,
            "bounded": chosen.bounded, "ignored": list(ignored)}
    _match_validator().validate(made)
    return made


def _limits(chosen: Config) -> dict[str, float]:
    limits = chosen.settings.limits
    return {"cpu_seconds": limits.cpu_seconds, "wall_seconds": limits.wall_seconds}


def grade(exercise: Exercise, files: dict[str, bytes], layout: Layout,
          jobs: int = os.cpu_count() or 1, quick: bool = False,
          ignored: Sequence[str] = ()) -> report.Report:
    """The report of a handed-in agent (``files``), played in ``layout``'s sandbox;
    ``quick``: a self-check of fewer games (``QUICK``), not the exercise's grade;
    ``ignored``: what the hand-in held that was left out, each with its reason."""
    started = time.monotonic()
    clock.sweep()
    clock.watch()  # however this process ends, its agents' groups go with it
    chosen = load_config(exercise.defined_by, **(QUICK if quick else {}))
    with tempfile.TemporaryDirectory(prefix="minimax-handin-") as temp:
        source = Path(temp, "agent")
        source.mkdir()
        try:
            table = points.grade(unpack(files, source), chosen, layout.backend,
                                  Path(temp) / "games.jsonl", jobs)
        except points.NoStart as why:
            return _unstarted(exercise, Submission(files, list(ignored)), chosen, str(why),
                              layout, started)
    void = [game for standing in table for game in standing.void]
    if void:  # the machine's doing, not the agent's: graded again, charged nothing
        return report.starved(
            exercise, Submission(files, list(ignored)),
            f"{len(void)} of the agent's games could not be played to their end, each tried "
            f"{1 + tournament.RETRIES} times (a move ended by the backstop within the agent's "
            f"own limits: the machine gave it no CPU); {void[0].id}: {void[0].reason}",
            layout, _limits(chosen), (time.monotonic() - started) * 1000)
    return _report(exercise, Submission(files, list(ignored)), chosen, table, layout, started)
