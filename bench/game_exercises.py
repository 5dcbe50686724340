"""The suites of the game exercises beside the reference's own search.

    python bench/game_exercises.py [--runs R] [--docker] [--exercise E ...]

For alphabeta, iterative_deepening, tic_tac_toe, tic_tac_toe_alphabeta,
nim_negamax, kayles_alphabeta and kayles_iterative_deepening: the time the
reference solution takes to answer, by itself in
this process, everything its suite asks (every position, every depth, every
budget of the clock); then the median time of
grading that solution R times, locally and (with --docker) in Docker; and
the ratio of each to the reference's own time, measured in the same run.
"""

import argparse
import functools
import importlib.util
import statistics
import sys
import time

import common  # noqa: F401  (puts the checkout on sys.path)

from grader import exercises, grading, sandbox, solutions
from grader.games import isolation, kayles, nim, tictactoe, unfinished
from grader.games.nim import rules as nim_rules
from grader.harness.lesson import deepening
from grader.sandbox.local import LocalSandbox


def _load(exercise, file):
    """The reference solution's module, imported from solutions/."""
    sys.modules.setdefault("nim", nim_rules)  # what negamax.py imports
    spec = importlib.util.spec_from_file_location(f"reference_{exercise}",
                                                  solutions.reference_folder(exercise) / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lab(exercise, names, is_end):
    """The lab's Game on every position its suite asks about."""
    game = _load(exercise, "tictactoe.py").Game()
    window = (-2, 2) if exercise.endswith("alphabeta") else ()
    for board, _ in tictactoe.positions():
        game.current_state, game.player_turn = tictactoe.rows(board), tictactoe.mark(board)
        if is_end:
            game.is_end()
        if not tictactoe.terminal(board):
            getattr(game, names[tictactoe.mark(board)])(*window)


def _negamax():
    search = _load("nim_negamax", "negamax.py").minimax
    games = ([(nim.Nim(c), range(9)) for c in range(26)]
             + [(nim.Nim(0, last=last), range(1, 4)) for last in (None, "A", "B")]
             + [(nim.MisereNim(c), range(1, 7)) for c in range(13)]
             + [(nim.OwnPiles((a, b)), range(1, 7)) for a in range(5) for b in range(5)])
    for game, depths in games:
        for depth in depths:
            for player in ("A", "B"):
                search(game, player, depth, nim.score)


def _isolation_cases(game=isolation):
    """(position, depths) as the alphabeta suites ask them, on ``game``."""
    return ([(state, range(1, 7)) for state, _ in unfinished(game)]
            + [(state, range(1, 4)) for state, _ in game.larger("depth")])


def _alphabeta(exercise="alphabeta", game=isolation):
    search = _load(exercise, "alphabeta.py").alpha_beta_search
    for _ in ("counts", "moves"):  # two tests ask the same searches
        for state, depths in _isolation_cases(game):
            for depth in depths:
                search(state, depth)


def _deepening(exercise="iterative_deepening", game=isolation):
    module = _load(exercise, "deepening.py")
    spent, counting = [0], module.terminal_test

    def terminal_test(state):
        spent[0] += 1
        return counting(state)

    module.terminal_test = terminal_test
    for state, _ in _isolation_cases(game):
        for clock, _ in deepening.clocks(state, game) + deepening.clocks(state, game, True):
            start = spent[0]
            module.get_action(state, lambda c=clock, s=start: c.budget - c.tick * (spent[0] - s))


REFERENCES = {
    "alphabeta": _alphabeta,
    "iterative_deepening": _deepening,
    "tic_tac_toe": lambda: _lab("tic_tac_toe", {"O": "max", "X": "min"}, True),
    "tic_tac_toe_alphabeta": lambda: _lab(
        "tic_tac_toe_alphabeta", {"O": "max_alpha_beta", "X": "min_alpha_beta"}, False),
    "nim_negamax": _negamax,
    "kayles_alphabeta": lambda: _alphabeta("kayles_alphabeta", kayles),
    "kayles_iterative_deepening": lambda: _deepening("kayles_iterative_deepening", kayles),
}


def _seconds(run, times):
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="gradings per exercise and sandbox")
    parser.add_argument("--docker", action="store_true", help="grade in Docker too")
    parser.add_argument("--exercise", action="append", choices=REFERENCES,
                        help="these exercises only (repeatable)")
    args = parser.parse_args()
    sandboxes = {"local": LocalSandbox()}
    if args.docker:
        docker = sandbox.backend("docker")
        if isinstance(docker, sandbox.Unavailable):
            raise SystemExit(f"no Docker sandbox here: {docker.why}")
        sandboxes["docker"] = docker
    print(f"median of {args.runs} runs; the suite's time is a whole grading (start to report)")
    for name, reference in REFERENCES.items():
        if args.exercise and name not in args.exercise:
            continue
        exercise = exercises.load(name)
        own = _seconds(reference, args.runs)
        print(f"{name}: the reference's own search over the suite's positions {own:.2f} s")
        for label, box in sandboxes.items():
            graded = _seconds(functools.partial(
                grading.grade, exercise, solutions.reference_folder(exercise.id), box,
                exercise.limits), args.runs)
            print(f"  {label:6} suite {graded:.2f} s: {graded / own:.2f}x the reference's search")


if __name__ == "__main__":
    main()
