"""Agents' matches: games per second on this machine's cores, and what the
sandbox costs per move, the same agents played three ways side by side.

    python bench/match_speed.py [-n GAMES] [--jobs J]

The agents are the random baseline on both sides, so that a move costs next
to nothing to think and the figures are the referee's and the sandbox's own:
in the referee's process, each agent in a plain process, in its own bubblewrap
view (the local sandbox) and in a Docker container of its own. A graded match
is bound by its agents' time limits instead: the last line says what that
makes of a match.
"""

import argparse
import itertools
import tempfile
import time
from pathlib import Path

from grader.match import baselines, container, launch, tournament
from grader.match.player import InProcessAgent, Limits
from grader.sandbox import local
from grader.sandbox.outcome import SandboxUnavailable

SOURCE = Path(baselines.__file__)


def makers():
    yield "in one process", lambda who: InProcessAgent(who, baselines.RandomAgent)
    yield "plain processes", lambda who: _named(launch.baseline("random"), who)
    if local.is_boundary():
        yield "bubblewrap", lambda who: launch.student(who, SOURCE, "RandomAgent")
    try:
        container.connect()
        yield "docker", lambda who: launch.student(who, SOURCE, "RandomAgent", "docker")
    except SandboxUnavailable as exc:
        print(f"  (no Docker: {exc})")


def _named(agent, name):
    agent.name = name
    return agent


def run(make, games: int, jobs: int) -> tuple[float, int, int]:
    """Seconds, games and agents' moves of ``games`` games, ``jobs`` pairings at once."""
    settings = tournament.Settings("knights", seed=1, openings=max(1, games // (2 * jobs)),
                                   limits=Limits(1.0, 10))
    names = [f"p{i}" for i in range(2 * jobs)]
    pairings = list(zip(names[::2], names[1::2], strict=True))
    with tempfile.TemporaryDirectory() as temp:
        start = time.monotonic()
        played = tournament.play(pairings, make, settings,
                                 tournament.Store(Path(temp) / "g.jsonl", settings), jobs)
        seconds = time.monotonic() - start
    moves = sum(1 for g in played for p in g.plies if p.agent)
    return seconds, len(played), moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=40, help="games a way (default 40)")
    parser.add_argument("--jobs", type=int, default=2, help="pairings at once (default 2)")
    args = parser.parse_args()
    print(f"{args.n} games of knight's isolation a way, random against random")
    base = None
    for (label, make), jobs in itertools.product(makers(), (1, args.jobs)):
        seconds, games, moves = run(make, args.n, jobs)
        per_move = seconds / moves * jobs  # each pairing's own time a move
        base = base or per_move
        print(f"  {label:<16} {jobs} at once: {games / seconds:6.2f} games/s, "
              f"{per_move * 1000:6.2f} ms a move ({per_move / base:5.1f}x one process)")
    print("  a graded match is bound by its limits instead: about 2 x 15 moves a game at up "
          "to the CPU limit each (1 s: ~30 s a game, each pairing on its own core)")


if __name__ == "__main__":
    main()
