"""What a random mover earns, in real games at the agent exercise's own settings
(match.toml: its limits, openings and thresholds): its win rate against each
baseline over many games, and its points in full gradings with different
seeds, each pairing stopped once its games settle it, as a grading stops it.

    python bench/random_mover.py [--games 100] [--grades 10] [--jobs 2]

The agents play in the referee's process, each timed by its own thread's CPU
time as an agent's process is by its control group's: the games are a
grading's but for the sandbox's cost, which changes no move of a baseline
that searches until its CPU time is spent. A random mover thinks for no time,
so nearly all the CPU is the baselines'. The points are those of
``grader.match.points`` on these games; the promise they are measured for is
at most 1 of 10 in every grading.
"""

import argparse
import dataclasses
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from common import ROOT  # noqa: F401  (the checkout on the path)

from grader.exercises import Opponent
from grader.match import baselines, points, tournament
from grader.match.config import Config
from grader.match.config import load as load_config
from grader.match.player import InProcessAgent

MOVER = "random mover"
PROMISE = 1.0  # of the 10 points: the most a random mover may earn in any grading


def make(config: Config):
    agents = {MOVER: baselines.RandomAgent,
              **{o.name: baselines.BASELINES[o.baseline] for o in config.opponents}}
    return lambda who: InProcessAgent(who, agents[who])


def reseeded(config: Config, seed: int, openings: int | None = None) -> Config:
    settings = dataclasses.replace(config.settings, seed=seed,
                                   openings=openings or config.settings.openings)
    return dataclasses.replace(config, settings=settings)


def chunk(opponent: Opponent, seed: int, openings: int) -> tuple[str, int, int]:
    """Every game of one pairing (no early stop): the opponent, the mover's wins, games."""
    config = reseeded(load_config(), seed, openings)
    with tempfile.TemporaryDirectory() as temp:
        store = tournament.Store(Path(temp) / "games.jsonl", config.settings)
        games = tournament.play([(MOVER, opponent.name)], make(config), config.settings, store)
    held = points.standing(MOVER, opponent, games)
    return opponent.name, held.wins, len(held.games)


def grading(seed: int) -> tuple[int, list[points.Standing]]:
    """One full grading of the random mover, as ``grade --exercise agent`` plays it."""
    config = reseeded(load_config(), seed)
    with tempfile.TemporaryDirectory() as temp:
        store = tournament.Store(Path(temp) / "games.jsonl", config.settings)
        return seed, points.play(MOVER, config, make(config), store)


def rates(pool: ProcessPoolExecutor, config: Config, games: int, seed: int, parts: int) -> None:
    openings = -(-games // (2 * parts))  # each part plays openings x 2 games
    futures = [pool.submit(chunk, opponent, seed + part, openings)
               for opponent in config.opponents for part in range(parts)]
    won: dict[str, list[int]] = {o.name: [0, 0] for o in config.opponents}
    for future in futures:
        name, wins, played = future.result()
        won[name][0] += wins
        won[name][1] += played
    print(f"A random mover against each baseline, {2 * openings * parts} games each "
          f"(seeds {seed}-{seed + parts - 1}, {openings} openings a seed, both sides):")
    for name, (wins, played) in won.items():
        low, high = points.wilson(wins, played)
        print(f"  {name:<10} won {wins:>3} of {played} ({wins / played:5.1%}; 95% interval "
              f"{low:.1%}-{high:.1%})")


def gradings(pool: ProcessPoolExecutor, config: Config, count: int, seed: int) -> None:
    print(f"Full gradings of a random mover ({config.settings.openings} openings, "
          f"{config.settings.limits.cpu_seconds:g} s of CPU a move, each pairing stopped "
          "once settled):")
    earned = []
    for found_seed, table in pool.map(grading, range(seed, seed + count)):
        total = round(sum(s.points for s in table), 2)
        earned.append(total)
        said = ", ".join(f"{s.opponent.name} {s.wins}/{len(s.games)} {s.points:g}"
                         for s in table)
        print(f"  seed {found_seed}: {total:.2f} / {sum(o.points for o in config.opponents):g}"
              f" ({said})")
    print(f"  most earned: {max(earned):.2f}, mean {sum(earned) / len(earned):.2f}; "
          f"promise: at most {PROMISE:g} in every grading: "
          f"{'kept' if max(earned) <= PROMISE else 'BROKEN'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games an opponent (100)")
    parser.add_argument("--grades", type=int, default=10, help="full gradings (10)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    config = load_config()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {args.jobs} "
          f"processes; {config.settings.variant}, {config.settings.limits.cpu_seconds:g} s "
          "of CPU a move")
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.games:
            rates(pool, config, args.games, args.seed, parts=5)
        if args.grades:
            gradings(pool, config, args.grades, args.seed + 100)
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
