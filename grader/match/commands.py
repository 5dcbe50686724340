"""``minimax-grader match`` (an agent against the baselines) and ``league``
(students' agents against each other): their flags and what they run."""

import argparse
import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import UsageError
from grader.hosting import watch
from grader.match import CONFIG
from grader.sandbox.outcome import SandboxUnavailable

if TYPE_CHECKING:
    from grader.match.config import Config

# The commands import the referee and the league when they run: every other
# command builds these parsers too, and should not pay for those imports.

SANDBOX_HELP = ("local (bubblewrap where it is installed; without it an ordinary user's "
                "plain process, refused as root) or docker (a container an agent, from the "
                "grading image)")


def _shared(command: argparse.ArgumentParser) -> None:
    command.add_argument("--config", default=str(CONFIG), metavar="TOML", help=(
        "the exercise's match.toml (default: the agent exercise's)"))
    command.add_argument("--seed", type=int, help="override the seed of openings and games")
    command.add_argument("--openings", type=int, help=(
        "override the openings a pairing plays (each from both sides)"))
    command.add_argument("--cpu-seconds", type=float, help="override the CPU time a move")
    command.add_argument("--sandbox", choices=("local", "docker"), default="local",
                         help=SANDBOX_HELP)
    command.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                         help="games played at once (default: the cores)")


def add_parsers(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    match = commands.add_parser("match", help="grade a game-playing agent by play", description=(
        "Play AGENT against each baseline of the match.toml from fixed openings, each from "
        "both sides, and report its win rates, points and one lost game."))
    match.add_argument("agent", metavar="AGENT", help=(
        "the student's agent: its agent.py, or a folder or .zip of agent.py and the "
        "modules beside it"))
    match.add_argument("--format", choices=("text", "json"), default="text")
    match.add_argument("--games", metavar="FILE", help=(
        "keep the games here, and resume from them (default: a temporary file)"))
    _shared(match)
    many = commands.add_parser("league", help="a round robin among students' agents",
                               description=(
        "Play every agent in SUBMISSIONS (SUBMISSIONS/<student>/ holding agent.py and "
        "its modules, or SUBMISSIONS/<student>.py) against every other; write "
        "OUTDIR/index.html (the leaderboard), OUTDIR/students/<student>.html (their games), "
        "leaderboard.json and games.jsonl. Run again to resume: only missing games, and "
        "those of students whose files changed, are played."))
    many.add_argument("submissions", metavar="SUBMISSIONS")
    many.add_argument("--format", choices=("text", "json"), default="text", help=(
        "json: the standings as a report (grader/schema/league.schema.json), each "
        "student's status and, where their agent could not start, why"))
    many.add_argument("-o", "--output", metavar="OUTDIR", required=True)
    many.add_argument("--broker", metavar="URL", help=(
        "a Redis URL: the pairings are played by the grading hosts of minimax-grader "
        "match-host, each in its own sandbox (--sandbox and --jobs are theirs then)"))
    _shared(many)
    host = commands.add_parser("match-host", help="play a league's pairings on this host",
                               description=(
        "Take the pairings that league --broker sends to URL and play them here."))
    watch.url_flag(host, "--broker", watch.BROKER, "the league's Redis URL",
                   required=True)
    host.add_argument("--concurrency", type=int, default=os.cpu_count() or 1,
                      help="pairings played at once")
    host.add_argument("--sandbox", choices=("local", "docker"), default="local",
                      help=SANDBOX_HELP)
    watch.watch_flags(host, 9466)


def _config(args: argparse.Namespace) -> "Config":
    from grader.match import config

    try:
        return config.load(Path(args.config), seed=args.seed, openings=args.openings,
                           cpu_seconds=args.cpu_seconds)
    except (OSError, config.BadConfig) as exc:
        raise UsageError(str(exc)) from None


def _stoppable(command: Callable[[argparse.Namespace], int]
               ) -> Callable[[argparse.Namespace], int]:
    """``command``, whose agents are all closed at once by SIGINT or SIGTERM (its
    processes, groups and containers gone) before it ends; a killed one's are swept
    by the next command's start."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        from grader.match import clock, player

        clock.sweep()
        clock.watch()
        with player.stopping_on_signals():
            return command(args)

    return run


@_stoppable
def cmd_match(args: argparse.Namespace) -> int:
    from grader import intake
    from grader.match import handin, points, tournament

    config, source = _config(args), Path(args.agent)
    if not source.exists():
        raise UsageError(f"{source}: no such file or folder")
    with tempfile.TemporaryDirectory(prefix="minimax-match-") as temp:
        try:
            taken = (intake.Submission({config.file: source.read_bytes()}) if source.suffix == ".py"
                     else intake.take_modules(source, config.file))
        except intake.Rejected as why:
            raise UsageError(f"{source}: {why}") from None
        folder = Path(temp, "agent")
        folder.mkdir()
        store = Path(args.games) if args.games else Path(temp) / "games.jsonl"
        try:
            table = points.grade(handin.unpack(taken.files, folder), config, args.sandbox, store,
                                  args.jobs)
        except (SandboxUnavailable, tournament.StoreMismatch) as exc:
            raise UsageError(str(exc)) from None
        except points.NoStart as why:
            if args.format == "json":
                print(json.dumps(handin.match_report(config, why=str(why),
                                                     ignored=taken.ignored), indent=1))
            print(f"The agent could not start, so no game was played: {why}", file=sys.stderr)
            return 1
    if args.format == "json":
        print(json.dumps(handin.match_report(config, table, ignored=taken.ignored), indent=1))
    else:
        print(points.to_text("agent", config, table))
        if taken.ignored:
            print("Left out of the hand-in: " + "; ".join(taken.ignored))
        if config.bounded:
            print(f"These points come from {config.bound()}.")
    return 0


@_stoppable
def cmd_league(args: argparse.Namespace) -> int:
    from grader.match import league, page, tournament

    config, submissions = _config(args), Path(args.submissions)
    if not submissions.is_dir():
        raise UsageError(f"{submissions}: not a folder")
    outdir = Path(args.output)
    try:
        rows, games = league.run(submissions, outdir, config, args.sandbox, args.jobs,
                                 args.broker)
    except (SandboxUnavailable, tournament.StoreMismatch) as exc:
        raise UsageError(str(exc)) from None
    index = page.write(outdir, config, rows, games)
    if args.format == "json":
        print(json.dumps(league.report(config, rows, games), indent=1))
    for rank, row in enumerate(rows if args.format == "text" else (), 1):
        print(f"{rank:>3}  {row.ordinal:7.2f}  {row.wins:>3}/{row.games:<3}  {row.name}")
    print(f"leaderboard: {index}", file=sys.stderr)
    return 0


def cmd_match_host(args: argparse.Namespace) -> int:
    from grader.match import spread  # Celery: the service extra

    return spread.host(args.broker, args.concurrency, args.sandbox, watch.Watch.of(args))


COMMANDS = {"match": cmd_match, "league": cmd_league, "match-host": cmd_match_host}
