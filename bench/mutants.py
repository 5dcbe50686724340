"""Mutation testing of the suites: does each exercise's suite kill every
small mistake in its reference solution?

    python bench/mutants.py [--jobs J] [--exercise E ...] [--sample N]

Each reference solution (``solutions/<id>/solution/``) is parsed, and each
mutant changes one thing in the code the student writes (the functions its
starter file does not give as they are; the given ones are left alone): an
arithmetic operator, a comparison (its bound or its direction), ``max`` and
``min`` swapped, a constant, a unary minus dropped, a statement dropped, a
call's arguments swapped, a ``max(a, b)`` / ``min(a, b)`` window update
replaced by its last argument, ``and`` / ``or`` swapped, a ``not`` dropped.
Every mutant is graded like a student's hand-in, through
``grading.grade_taken`` in the local sandbox. A mutant that keeps full marks
survives; ``bench/mutants.toml`` lists the survivors known to be equivalent
(the same answers, checked by bench/equivalence.py), those that answer in
another form the exercise allows, and the holes known and still open, each
with its reason.

The table gives per exercise: the mutants, those killed (lost marks), the
equivalent survivors (of which how many in an allowed form) and the others,
of which how many are listed open; each
survivor listed nowhere is printed under the table (there must be none), and
on stderr as soon as its exercise is graded.
"""

from __future__ import annotations

import argparse
import ast
import copy
import functools
import random
import sys
import tomllib
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent  # the source checkout
sys.path.insert(0, str(ROOT))

from grader import exercises, grading, solutions  # noqa: E402
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


def reference_files(exercise: str) -> dict[str, bytes]:
    folder = solutions.reference_folder(exercise)
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.py"))}


def unchanged(exercise: str) -> Mutant:
    """The reference as the mutants are written (unparsed: no comments): it
    must keep full marks, or every mutant's verdict means nothing."""
    files = reference_files(exercise)
    return Mutant(exercise, "(unchanged)", {name: (ast.unparse(ast.parse(data)) + "\n").encode()
                                           for name, data in files.items()})


@functools.cache
def mutants_of(exercise: str) -> tuple[Mutant, ...]:
    """Every mutant of ``exercise``'s reference solution, in the order of its
    files and sites; a mutant whose code is the reference's, or another's, once
    (made once a process)."""
    files = reference_files(exercise)
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
    """The survivors ``path`` lists as ``kind`` ("equivalent", "allowed" or "open"):
    {exercise: {label: why}}."""
    with open(path, "rb") as handle:
        found: dict[str, dict[str, str]] = tomllib.load(handle).get(kind, {})
    return found


Drawn = TypeVar("Drawn")


def sample(items: Sequence[Drawn], size: int | None, seed: int = 0) -> list[Drawn]:
    """``size`` of ``items`` (mutants, labels), drawn with ``seed``, in their
    order (all of them for None)."""
    if size is None or size >= len(items):
        return list(items)
    return sorted(random.Random(seed).sample(items, size), key=items.index)


def run(chosen: list[Mutant], jobs: int) -> list[Mutant]:
    """The survivors among ``chosen``, graded ``jobs`` at a time."""
    with ProcessPoolExecutor(jobs) as pool:
        return [m for m, alive in zip(chosen, pool.map(survives, chosen), strict=True) if alive]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--exercise", action="append", help="only these (repeatable)")
    parser.add_argument("--sample", type=int, help="grade only N mutants an exercise (seeded)")
    args = parser.parse_args()
    graded = [e for e in exercises.known(kind=exercises.SUITE)
              if solutions.reference_folder(e).is_dir()]
    same, allowed, known = listed("equivalent"), listed("allowed"), listed("open")
    print("| exercise | mutants | killed | equivalent (allowed forms) "
          "| not equivalent (listed open) |")
    print("|---|---:|---:|---:|---:|")
    holes = []
    for exercise in args.exercise or graded:
        chosen = sample(mutants_of(exercise), args.sample)
        alive = run([unchanged(exercise), *chosen], args.jobs)
        if not alive or alive.pop(0).label != "(unchanged)":
            raise SystemExit(f"{exercise}: its reference, unparsed, loses marks")
        forms = [m for m in alive if m.label in allowed.get(exercise, {})]
        equal = [m for m in alive if m.label in same.get(exercise, {})] + forms
        other = [m for m in alive if m not in equal]
        unlisted = [m for m in other if m.label not in known.get(exercise, {})]
        listed_open = len(other) - len(unlisted)
        print(f"| {exercise} | {len(chosen)} | {len(chosen) - len(alive)} | {len(equal)} "
              f"({len(forms)}) | {len(other)} ({listed_open}) |", flush=True)
        for mutant in unlisted:  # at once too: a long run's first exercises can be looked into
            print(f"survives, not listed: {mutant.label}", file=sys.stderr, flush=True)
        holes += unlisted
    for mutant in holes:
        print(f"survives, not listed: {mutant.label}")


if __name__ == "__main__":
    main()
