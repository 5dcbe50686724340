"""How long an agent's full grading takes: the reference agent (a strong one)
graded as `minimax-grader grade --exercise agent` grades it, at the exercise's
own settings (match.toml), games side by side over the cores and each pairing
stopped once its games settle the points; a random mover beside it, for what
the point rule gives it; and a dawdler, for how long a hand-in that sleeps
just under its wall limit every move can hold a grading slot (the match's
deadline ends it).

    python bench/agent_grading.py [--jobs J] [--sandbox local|docker] [--random] [--dawdler]

Prints the seconds, the games played against each opponent, the points, and
the machine's load average before and after (the figure means something only
beside it: games wait for a CPU on a busy machine, and time limits count CPU).
"""

import argparse
import json
import os
import time
from pathlib import Path

from common import ROOT  # noqa: F401  (the checkout on the path)

from grader import solutions
from grader.match import baselines, handin

# Sleeps (no CPU) just under the wall limit of its own time, then moves at random.
DAWDLER = """import random, time

class Agent:
    def get_move(self, game, time_left):
        time.sleep({seconds:.3f})
        return random.choice(game.get_legal_moves())
"""


def grade(files: dict[str, bytes], jobs: int, backend: str) -> tuple[float, dict]:
    started = time.monotonic()
    made = handin.grade(handin.exercise(), files, backend, jobs)
    return time.monotonic() - started, made


def show(name: str, seconds: float, made: dict) -> None:
    played = {t["name"]: t["message"].split(" (")[0] for t in made["tests"]}
    print(f"{name}: {seconds:.0f} s, {made['score']:g}/{made['max_score']:g} points "
          f"({made['status']}); " + "; ".join(f"{k}: {v}" for k, v in played.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--sandbox", choices=("local", "docker"), default="local")
    parser.add_argument("--random", action="store_true", help="grade a random mover too")
    parser.add_argument("--dawdler", action="store_true", help="grade a dawdler too")
    parser.add_argument("--no-reference", action="store_true", help="not the reference")
    args = parser.parse_args()
    config = handin.config()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
          f"{args.jobs} games at once, {config.settings.limits.cpu_seconds:g} s of CPU a move, "
          f"a match's deadline {config.deadline_seconds:g} s of the agent's own time")
    if not args.no_reference:
        reference = solutions.reference_folder("agent") / "agent.py"
        show("reference agent", *grade({"agent.py": reference.read_bytes()}, args.jobs,
                                       args.sandbox))
    if args.random:
        mover = Path(baselines.__file__).read_bytes() + b"\nAgent = RandomAgent\n"
        show("random mover", *grade({"agent.py": mover}, args.jobs, args.sandbox))
    if args.dawdler:
        sleep = 0.95 * config.settings.limits.wall_seconds
        seconds, made = grade({"agent.py": DAWDLER.format(seconds=sleep).encode()},
                              args.jobs, args.sandbox)
        show(f"dawdler ({sleep:.2f} s asleep a move)", seconds, made)
        print(f"  games lost past the match's deadline: "
              f"{json.dumps(made).count('past the match' + chr(39) + 's deadline')}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
