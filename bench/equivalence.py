"""Whether a surviving mutant (bench/mutants.py) answers as its reference,
run in this process on every input its exercise's suites ask about and more.

    python bench/equivalence.py [--exercise E ...]

checks every survivor bench/mutants.toml lists as equivalent, the lab's on
every board (tests/test_mutants.py checks a sample, the lab's from boards of
three marks), and prints each with what it found.

``same_answers(mutant)`` runs the mutant and the reference on the same
inputs and compares what they give, by the kind of exercise:

- a decision with a depth (``alpha_beta_search``, ``minimax_decision``): its
  move and terminal tests on every position of the game at depths 1 to 8 and
  on drawn trees;
- iterative deepening (``get_action``): its move and terminal tests on every
  position of the game, and the chosen larger ones, at every budget the
  suite gives them and on clocks no threshold can hide at every depth, and
  on drawn trees;
- the GameState class: its legal moves at every position of its whole game;
- the lab's ``Game`` class: ``is_end()`` on every legal board, and each
  search's value, whether its move is a best one (any best move is right),
  the board and turn it leaves and the boards it calls ``is_end()`` on, on
  every unfinished board of its player (the grader's ``is_end()`` counting
  during a search, as in the suite).

A survivor listed equivalent must answer as the reference here; one listed
``allowed`` answers otherwise, in a form the exercise accepts (a threshold,
the fallback's move), and its reason says which.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from mutants import Mutant, listed, mutants_of, reference_files

from grader import exercises, games
from grader.games import tictactoe, tree, unfinished
from grader.harness.lesson import deepening
from grader.harness.tictactoe import checks as lab_checks
from grader.harness.tictactoe import search as lab_search

# The lesson's depth-limited decisions on a GameState, run here as they stand.
_DECISIONS = ("alpha_beta_search", "minimax_decision")
DEPTHS = range(1, 9)
TREES = 300  # drawn trees each survivor is run on
TREE_DEPTH = 6  # levels of a drawn tree at most
WALK_MOST = 10_000  # lists of legal moves a GameState's walk makes at most (the reference: 450)
ALL_BOARDS = 0  # the lab's boards with at least this many marks are searched from: all of them


class Tests:
    """A terminal_test that keeps the positions it was called on, by label."""

    def __init__(self, label: Callable[[Any], str]) -> None:
        self.label = label
        self.made: Counter[str] = Counter()
        self.total = 0

    def __call__(self, state: Any) -> bool:
        self.total += 1
        self.made[self.label(state)] += 1
        return not state.get_legal_moves()

    def reset(self) -> None:
        self.made.clear()
        self.total = 0


def loaded(source: bytes, label: Callable[[Any], str] = repr) -> tuple[dict[str, Any], Tests]:
    """The module ``source`` defines, its terminal_test keeping its calls
    (reset them before each search)."""
    space: dict[str, Any] = {"__name__": "mutant"}
    exec(compile(source, "mutant.py", "exec"), space)  # noqa: S102  # our own reference, mutated
    space["terminal_test"] = tests = Tests(label)
    return space, tests


def drawn_trees(count: int = TREES, seed: int = 0) -> list[Any]:
    """``count`` random trees (nested lists), each node 0 to 3 children, at most
    ``TREE_DEPTH`` levels; the root always has children."""
    draw = random.Random(seed)

    def node(level: int) -> list[Any]:
        if level >= TREE_DEPTH:
            return []
        return [node(level + 1) for _ in range(draw.choice((0, 1, 2, 2, 3)))]

    return [[node(1) for _ in range(draw.randint(1, 3))] for _ in range(count)]


def _decision(files: dict[str, bytes]) -> tuple[str, str] | None:
    """(file, function) of the lesson's decision with a depth that ``files``
    define in a file that imports nothing; None where there is none."""
    for name, data in files.items():
        parsed = ast.parse(data)
        if any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in ast.walk(parsed)):
            continue
        for node in parsed.body:
            if (isinstance(node, ast.FunctionDef) and node.name in _DECISIONS
                    and len(node.args.args) == 2):
                return name, node.name
    return None


def _label(state: Any) -> str:
    """A position's label in its own game (a GameState of Isolation or Kayles,
    or a drawn tree's node)."""
    return str(_labels(type(state))(state))


@functools.cache
def _labels(kind: type) -> Callable[[Any], object]:
    return games.load(kind.__module__.split(".")[2]).label  # type: ignore[no-any-return]


def _rules(exercise: str) -> Any:
    return importlib.import_module(f"grader.games.{exercises.load(exercise).game}")


def _each(call: Callable[[], object], tests: Tests | None = None) -> tuple[object, object]:
    """``call``'s answer (or the name of what it raised) and the positions of
    its terminal tests."""
    if tests is not None:
        tests.reset()
    try:
        answer = call()
    except Exception as exc:  # noqa: BLE001  # a mutant's crash is an answer too
        answer = type(exc).__name__
    return answer, tests and dict(tests.made)


def answers(exercise: str, files: dict[str, bytes]) -> list[object]:
    """What ``files``' decision answers (its move, or what it raised, and its
    terminal tests) on every position the exercise's suites ask about, at
    depths 1 to 8, and on drawn trees at every depth that reaches them."""
    found_decision = _decision(files)
    assert found_decision is not None, "answers: no decision with a depth"
    name, function = found_decision
    rules = _rules(exercise)
    space, tests = loaded(files[name], _label)
    states = [s for s, _ in unfinished(rules)] + [s for s, _ in rules.larger("depth")]
    roots = [tree.from_data(t) for t in drawn_trees()]
    return [_each(lambda s=state, d=depth: space[function](s, d), tests)
            for state, depth in [(s, d) for s in states for d in DEPTHS]
            + [(r, d) for r in roots for d in range(1, TREE_DEPTH + 2)]]


def _deepening_clocks(state: Any, game: Any) -> list[deepening.Clock]:
    """The suite's budgets for ``state``, and a clock no threshold can hide
    (``deepening.clock_past``) at each depth its search has."""
    each = deepening.counts(state, game)
    budgets = [clock for clock, _ in deepening.clocks(state, game)] if game is not tree else []
    return budgets + [c for depth in range(1, len(each)) if (c := deepening.clock_past(each,
                                                                                        depth))]


def deepened(exercise: str, files: dict[str, bytes]) -> list[object]:
    """What ``files``' get_action answers (its move, or what it raised, and its
    terminal tests) on every position of the exercise's game and its chosen
    larger ones, at each of ``_deepening_clocks``, and on drawn trees."""
    space, tests = loaded(files["deepening.py"], _label)
    rules = _rules(exercise)
    states = [s for s, _ in unfinished(rules)] + [
        s for kind in ("depth", "decision") for s, _ in rules.larger(kind)]
    cases = [(s, c) for s in states for c in _deepening_clocks(s, rules)] + [
        (r, c) for r in map(tree.from_data, drawn_trees()) for c in _deepening_clocks(r, tree)]
    return [_each(lambda s=state, c=clock: space["get_action"](
        s, lambda: c.budget - c.tick * tests.total), tests) for state, clock in cases]


def walk(files: dict[str, bytes]) -> list[object]:
    """The legal moves a ``GameState`` of ``files`` (the gamestate exercise's
    class) gives at every position of its whole game, from ``GameState()``
    through ``forecast_move``, in the order of a depth-first walk, and again
    at each position once its children were forecast (a forecast must leave
    it as it was); a walk past ``WALK_MOST`` lists is cut there (a game
    that never ends)."""
    name = next(n for n, data in files.items() if b"class GameState" in data)
    space: dict[str, Any] = {"__name__": "mutant"}
    exec(compile(files[name], name, "exec"), space)  # noqa: S102  # our own reference, mutated
    found: list[object] = []

    def visit(state: Any) -> None:
        if len(found) > WALK_MOST:
            raise RecursionError("the walk goes on past WALK_MOST")
        moves = state.get_legal_moves()
        found.append(moves)
        for move in moves:
            visit(state.forecast_move(move))
        found.append(state.get_legal_moves())

    try:
        visit(space["GameState"]())
    except Exception as exc:  # noqa: BLE001  # a mutant's crash is an answer too
        found.append(type(exc).__name__)
    return found


def _lab_class(files: dict[str, bytes]) -> Any:
    space: dict[str, Any] = {"__name__": "mutant"}
    exec(compile(files["tictactoe.py"], "tictactoe.py", "exec"), space)  # noqa: S102  # ours, mutated
    return space["Game"]


def _on(game_class: Any, board: str) -> Any:
    """A ``Game`` set to ``board``, its player to move."""
    game = game_class()
    game.current_state = [list(board[row:row + 3]) for row in (0, 3, 6)]
    game.player_turn = tictactoe.mark(board)
    return game


def lab_ends(files: dict[str, bytes]) -> list[object]:
    """What the lab's ``Game`` class of ``files`` answers to ``is_end()`` on
    every legal board."""
    game_class = _lab_class(files)
    return [_each(lambda b=board: _on(game_class, b).is_end())[0]
            for board, _ in tictactoe.positions()]


def lab_searches(exercise: str, files: dict[str, bytes], fewest_marks: int = ALL_BOARDS
                 ) -> list[object]:
    """What each search of the lab's ``Game`` class of ``files`` (``max``/``min``,
    or the alpha-beta pair with the lab's window) answers on every unfinished
    board of its player with at least ``fewest_marks`` marks (a search from
    the empty board has 549,946 nodes): the value, whether the move is a best
    one, the board and turn left, and the boards the grader's ``is_end()``
    was called on."""
    game_class = _lab_class(files)
    calls: Counter[str] = Counter()

    def is_end(self: Any) -> str | None:  # the grader's, counting (as the suite's)
        board = "".join("".join(row) for row in self.current_state)
        calls[board] += 1
        return tictactoe.end(board)

    game_class.is_end = is_end
    pair = ("max", "min") if exercise == "tic_tac_toe" else ("max_alpha_beta", "min_alpha_beta")
    found: list[object] = []
    for name in pair:
        for board, _ in lab_checks.unfinished(name):
            if 9 - board.count(tictactoe.EMPTY) >= fewest_marks:
                calls.clear()
                game = _on(game_class, board)
                answer = _each(lambda g=game, n=name: getattr(g, n)(*lab_checks.window(n)))[0]
                best = (type(answer) is tuple and len(answer) == 3
                        and answer[1:] in lab_search.best_moves(board))
                found.append((answer[0] if best else answer, best, game.current_state,
                              game.player_turn, dict(calls)))
    return found


def same_answers(mutant: Mutant, fewest_marks: int = ALL_BOARDS) -> bool | None:
    """Whether ``mutant`` answers as its reference everywhere its kind of
    exercise is looked at (the lab's boards from ``fewest_marks`` marks);
    None for an exercise of no kind above (the helpers, a decision without
    a depth, Nim's negamax)."""
    if mutant.exercise == "gamestate":
        return walk(mutant.files) == walk(reference_files(mutant.exercise))
    if "tictactoe.py" in mutant.files:  # is_end first: a search needs only the grader's
        return lab_ends(mutant.files) == lab_ends(reference_files(mutant.exercise)) and \
            lab_searches(mutant.exercise, mutant.files, fewest_marks) == _reference_lab(
                mutant.exercise, fewest_marks)
    if "deepening.py" in mutant.files or _decision(mutant.files) is not None:
        return _answers_of(mutant.exercise, mutant.files) == _reference_answers(mutant.exercise)
    return None


def _answers_of(exercise: str, files: dict[str, bytes]) -> list[object]:
    """The answers of iterative deepening, or of a decision with a depth."""
    return deepened(exercise, files) if "deepening.py" in files else answers(exercise, files)


@functools.cache
def _reference_answers(exercise: str) -> list[object]:
    return _answers_of(exercise, reference_files(exercise))


@functools.cache
def _reference_lab(exercise: str, fewest_marks: int) -> list[object]:
    return lab_searches(exercise, reference_files(exercise), fewest_marks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exercise", action="append", help="only these (repeatable)")
    args = parser.parse_args()
    differ = 0
    for exercise, survivors in sorted(listed("equivalent").items()):
        if args.exercise and exercise not in args.exercise:
            continue
        found = {m.label: m for m in mutants_of(exercise)}
        for label in survivors:
            same = same_answers(found[label])
            differ += same is False
            said = {True: "same answers", False: "DIFFERS", None: "no check runs here"}[same]
            print(f"{exercise}: {label}: {said}", flush=True)
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
