"""Mutation testing of the suites: does each exercise's suite kill every
small mistake in its reference solution?

    python bench/mutants.py [--jobs J] [--exercise E ...] [--sample N]

Each reference solution (``solutions/<id>/solution/``) is parsed, and each
mutant changes one thing in the code the student writes (the functions its
starter file does not give as they are; the given ones are left alone): an
arithmetic operator, a comparison (its bound or its direction), ``max`` and
``min`` swapped, a constant, a unary minus dropped, a statement dropped, a
call's arguments swapped, a ``max(a, b)`` / ``min(a, b)`` window update
replaced by its last argument, ``and`` / ``or`` swapped, a ``not`` dropped. Every mutant is graded
like a student's hand-in, through ``grading.grade_taken`` in the local
sandbox. A mutant that keeps full marks survives; ``bench/mutants.toml`` lists
the survivors known to be equivalent and the holes known and still open,
each with its reason.

The table gives per exercise: the mutants, those killed (lost marks), the
equivalent survivors and the others, of which how many are listed open; each
survivor listed nowhere is printed under the table (there must be none).
"""

from __future__ import annotations

import argparse
import ast
import copy
import functools
import importlib
import random
import sys
import tomllib
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent  # the source checkout
sys.path.insert(0, str(ROOT))

from grader import exercises, grading, solutions  # noqa: E402
from grader.games import tree, unfinished  # noqa: E402
from grader.sandbox.local import LocalSandbox  # noqa: E402

LISTED = Path(__file__).with_name("mutants.toml")  # the survivors, each with its reason

_OPERATORS: dict[type[ast.AST], tuple[type[ast.AST], ...]] = {
    ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.FloorDiv,),
    ast.Mod: (ast.FloorDiv,), ast.FloorDiv: (ast.Mult,), ast.Div: (ast.Mult,),
    # a comparison: its bound (strict or not), then its direction
    ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.GtE),
    ast.Gt: (ast.GtE, ast.Lt), ast.GtE: (ast.Gt, ast.LtE),
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,), ast.NotIn: (ast.In,), ast.And: (ast.Or,), ast.Or: (ast.And,),
}
_SWAPPED_NAMES = {"max": "min", "min": "max", "True": "False", "False": "True"}
_SWAPPED_TEXT = {"inf": "-inf", "-inf": "inf"}


@dataclass(frozen=True)
class Mutant:
    """One change to a reference: where (file, function, line), what it was
    and what it became; ``files`` the mutated submission."""

    exercise: str
    label: str
    files: dict[str, bytes]


# A mutation site: the node, and the nodes it may become (None: dropped).
Site = tuple[ast.AST, list[ast.AST | None]]


def _replacements(node: ast.AST) -> list[ast.AST | None]:
    """What ``node`` may become, one mutation each."""
    found: list[ast.AST | None] = []
    if isinstance(node, (ast.BinOp, ast.BoolOp, ast.AugAssign)):
        found += [_with(node, op=new()) for new in _OPERATORS.get(type(node.op), ())]
    elif isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for new in _OPERATORS.get(type(op), ()):
                found.append(_with(node, ops=[*node.ops[:i], new(), *node.ops[i + 1:]]))
    elif isinstance(node, ast.Name) and node.id in _SWAPPED_NAMES:
        found.append(_with(node, id=_SWAPPED_NAMES[node.id]))
    elif isinstance(node, ast.Constant):
        found += _constants(node)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        found.append(node.operand)
    elif isinstance(node, ast.Call):
        found += _calls(node)
    return found


def _with(node: ast.AST, **fields: object) -> ast.AST:
    changed = copy.copy(node)
    for name, value in fields.items():
        setattr(changed, name, value)
    return changed


def _constants(node: ast.Constant) -> list[ast.AST | None]:
    value = node.value
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        return [ast.Constant(v) for v in dict.fromkeys((value + 1, value - 1, -value))
                if v != value]
    if isinstance(value, str) and value in _SWAPPED_TEXT:
        return [ast.Constant(_SWAPPED_TEXT[value])]
    return []


def _calls(node: ast.Call) -> list[ast.AST | None]:
    """A call's neighbouring arguments swapped; ``max(a, b)`` / ``min(a, b)``
    as its last argument (a window set to the value instead of narrowed)."""
    found: list[ast.AST | None] = []
    window = isinstance(node.func, ast.Name) and node.func.id in ("max", "min")
    for i in range(len(node.args) - 1 if not window else 0):  # (max and min commute)
        args = list(node.args)
        args[i], args[i + 1] = args[i + 1], args[i]
        found.append(_with(node, args=args))
    if window and len(node.args) == 2:
        found.append(node.args[-1])
    return found


Function = ast.FunctionDef | ast.AsyncFunctionDef


def _functions(tree: ast.Module) -> dict[str, Function]:
    """The module's functions and its classes' methods, by name ("Game.max")."""
    found: dict[str, Function] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            found.update({f"{node.name}.{f.name}": f for f in node.body
                          if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))})
    return found


def _code(function: Function) -> str:
    """A function's code as the AST has it, its docstring left out."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return ast.dump(ast.Module(body=body, type_ignores=[]))


def _students(tree: ast.Module, starter: ast.Module | None) -> dict[str, Function]:
    """The functions the student writes: those the starter file does not give
    as they are in the reference (its stubs, and what it lacks)."""
    given = _functions(starter) if starter else {}
    return {name: f for name, f in _functions(tree).items()
            if name not in given or _code(given[name]) != _code(f)}


def _sites(functions: dict[str, Function]) -> Iterator[tuple[str, Site]]:
    """Every mutation site of ``functions``, with its function's name: each
    expression's replacements, and each statement dropped."""
    for name, function in functions.items():
        for node in ast.walk(function):
            if node is function or isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                continue
            if isinstance(node, ast.stmt):
                if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Constant):
                    yield name, (node, [None])  # (a docstring: nothing to drop)
            replacements = _replacements(node)
            if replacements:
                yield name, (node, replacements)


class _Swap(ast.NodeTransformer):
    """Replaces one node (by identity) with another, or drops it (a ``pass``
    where its block would be left empty)."""

    def __init__(self, old: ast.AST, new: ast.AST | None) -> None:
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> ast.AST | None:
        if node is self.old:
            return self.new if self.new is not None else ast.Pass()
        return self.generic_visit(node)


def _line(node: ast.AST) -> str:
    """``node``'s code on one line: a block's first line, then "..."."""
    lines = ast.unparse(node).splitlines()
    return lines[0] + (" ..." if len(lines) > 1 else "")


def _label(name: str, function: str, old: ast.AST, new: ast.AST | None) -> str:
    after = "(dropped)" if new is None else _line(new)
    where = f"{getattr(old, 'lineno', 0)}:{getattr(old, 'col_offset', 0)}"
    return f"{name}:{function}:{where}: {_line(old)} -> {after}"


def _reference_files(exercise: str) -> dict[str, bytes]:
    folder = solutions.reference_folder(exercise)
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.py"))}


def unchanged(exercise: str) -> Mutant:
    """The reference as the mutants are written (unparsed: no comments): it
    must keep full marks, or every mutant's verdict means nothing."""
    files = _reference_files(exercise)
    return Mutant(exercise, "(unchanged)", {name: (ast.unparse(ast.parse(data)) + "\n").encode()
                                           for name, data in files.items()})


@functools.cache
def mutants_of(exercise: str) -> tuple[Mutant, ...]:
    """Every mutant of ``exercise``'s reference solution, in the order of its
    files and sites; a mutant whose code is the reference's, or another's, once
    (made once a process)."""
    files = _reference_files(exercise)
    found: dict[str, Mutant] = {}
    seen = set()
    for name, data in files.items():
        source = data.decode()
        tree = ast.parse(source)
        seen.add(ast.unparse(tree) + "\n")  # (as ``_mutated_text`` writes it)
        starter = exercises.load(exercise).starter / name
        given = ast.parse(starter.read_bytes()) if starter.is_file() else None
        for function, (old, replacements) in _sites(_students(tree, given)):
            for new in replacements:
                text = _mutated_text(tree, old, new)
                if text in seen:
                    continue
                seen.add(text)
                label = _label(name, function, old, new)
                found.setdefault(label, Mutant(exercise, label, {**files, name: text.encode()}))
    return tuple(found.values())


def _mutated_text(tree: ast.Module, old: ast.AST, new: ast.AST | None) -> str:
    """The module's source with ``old`` replaced by ``new`` (or dropped); the
    tree itself is left as it was."""
    swapped = _Swap(old, new).visit(_shallow_tree_copy(tree, old))
    assert isinstance(swapped, ast.Module)  # (only a node below the module is swapped)
    return ast.unparse(ast.fix_missing_locations(swapped)) + "\n"


def _shallow_tree_copy(tree: ast.Module, keep: ast.AST) -> ast.Module:
    """A copy of ``tree`` whose nodes are new objects, except ``keep`` and what
    lies under it: the swap finds ``keep`` by identity and never changes it."""
    def clone(node: ast.AST) -> ast.AST:
        if node is keep:
            return node
        fresh = copy.copy(node)
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                setattr(fresh, field, [clone(v) if isinstance(v, ast.AST) else v
                                       for v in value])
            elif isinstance(value, ast.AST):
                setattr(fresh, field, clone(value))
        return fresh

    cloned = clone(tree)
    assert isinstance(cloned, ast.Module)
    return cloned


def survives(mutant: Mutant) -> bool:
    """Whether ``mutant``, graded as a hand-in in the local sandbox, keeps full
    marks. A grader error is no verdict: it stops the run."""
    exercise = exercises.load(mutant.exercise)
    report = grading.until_timed(lambda: [grading.grade_taken(
        exercise, mutant.files, LocalSandbox(), exercise.limits)])[0]
    if report["status"] != "graded":
        raise RuntimeError(f"{mutant.label}: not graded: {report['message']}")
    return bool(report["score"] == report["max_score"])


def listed(kind: str, path: Path = LISTED) -> dict[str, dict[str, str]]:
    """The survivors ``path`` lists as ``kind`` ("equivalent" or "open"):
    {exercise: {label: why}}."""
    with open(path, "rb") as handle:
        found: dict[str, dict[str, str]] = tomllib.load(handle).get(kind, {})
    return found


def sample(mutants: Sequence[Mutant], size: int | None, seed: int = 0) -> list[Mutant]:
    """``size`` of ``mutants``, drawn with ``seed`` (all of them for None)."""
    if size is None or size >= len(mutants):
        return list(mutants)
    return sorted(random.Random(seed).sample(mutants, size), key=mutants.index)


def run(chosen: list[Mutant], jobs: int) -> list[Mutant]:
    """The survivors among ``chosen``, graded ``jobs`` at a time."""
    with ProcessPoolExecutor(jobs) as pool:
        return [m for m, alive in zip(chosen, pool.map(survives, chosen), strict=True) if alive]


# -- equivalence, in this process: the same answers and terminal tests -----------

# The lesson's depth-limited decisions on a GameState, run here as they stand.
_DECISIONS = ("alpha_beta_search", "minimax_decision")
DEPTHS = range(1, 9)
TREES = 300  # drawn trees each survivor is run on
TREE_DEPTH = 6  # levels of a drawn tree at most
WALK_MOST = 10_000  # lists of legal moves a GameState's walk makes at most (the reference: 450)


def _loaded(source: bytes) -> tuple[dict[str, Any], list[int]]:
    """The module ``source`` defines, its terminal_test counting (the count in
    the list: reset it before each call)."""
    space: dict[str, Any] = {"__name__": "mutant"}
    exec(compile(source, "mutant.py", "exec"), space)  # noqa: S102  # our own reference, mutated
    count = [0]

    def terminal_test(state: Any) -> bool:
        count[0] += 1
        return not state.get_legal_moves()

    space["terminal_test"] = terminal_test
    return space, count


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
        tree = ast.parse(data)
        if any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in ast.walk(tree)):
            continue
        for node in tree.body:
            if (isinstance(node, ast.FunctionDef) and node.name in _DECISIONS
                    and len(node.args.args) == 2):
                return name, node.name
    return None


def answers(exercise: str, files: dict[str, bytes]) -> list[object]:
    """What ``files``' decision answers (its move, or what it raised, and its
    terminal tests) on every position the exercise's suites ask about, at
    depths 1 to 8, and on drawn trees at every depth that reaches them."""
    found_decision = _decision(files)
    assert found_decision is not None, "answers: no decision with a depth"
    name, function = found_decision
    space, count = _loaded(files[name])
    rules = importlib.import_module(f"grader.games.{exercises.load(exercise).game}")
    states = [s for s, _ in unfinished(rules)] + [s for s, _ in rules.larger("depth")]
    roots = [tree.from_data(t) for t in drawn_trees()]
    found: list[object] = []
    for state, depth in [(s, d) for s in states for d in DEPTHS] + [
            (r, d) for r in roots for d in range(1, TREE_DEPTH + 2)]:
        count[0] = 0
        try:
            found.append((space[function](state, depth), count[0]))
        except Exception as exc:  # noqa: BLE001  # a mutant's crash is an answer too
            found.append((type(exc).__name__, count[0]))
    return found


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


def same_answers(mutant: Mutant) -> bool | None:
    """Whether ``mutant`` answers as its reference everywhere ``answers`` (a
    decision with a depth on a GameState) or ``walk`` (the GameState itself)
    looks; None where its exercise is neither."""
    if _decision(mutant.files) is not None:
        return answers(mutant.exercise, mutant.files) == _reference_answers(mutant.exercise)
    if mutant.exercise == "gamestate":
        return walk(mutant.files) == walk(_reference_files(mutant.exercise))
    return None


@functools.cache
def _reference_answers(exercise: str) -> list[object]:
    return answers(exercise, _reference_files(exercise))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--exercise", action="append", help="only these (repeatable)")
    parser.add_argument("--sample", type=int, help="grade only N mutants an exercise (seeded)")
    args = parser.parse_args()
    graded = [e for e in exercises.known(kind=exercises.SUITE)
              if solutions.reference_folder(e).is_dir()]
    same, known = listed("equivalent"), listed("open")
    print("| exercise | mutants | killed | equivalent | not equivalent (listed open) |")
    print("|---|---:|---:|---:|---:|")
    holes = []
    for exercise in args.exercise or graded:
        chosen = sample(mutants_of(exercise), args.sample)
        alive = run([unchanged(exercise), *chosen], args.jobs)
        if not alive or alive.pop(0).label != "(unchanged)":
            raise SystemExit(f"{exercise}: its reference, unparsed, loses marks")
        equal = [m for m in alive if m.label in same.get(exercise, {})]
        other = [m for m in alive if m not in equal]
        holes += [m for m in other if m.label not in known.get(exercise, {})]
        listed_open = sum(m.label in known.get(exercise, {}) for m in other)
        print(f"| {exercise} | {len(chosen)} | {len(chosen) - len(alive)} | {len(equal)} "
              f"| {len(other)} ({listed_open}) |", flush=True)
    for mutant in holes:
        print(f"survives, not listed: {mutant.label}")


if __name__ == "__main__":
    main()
