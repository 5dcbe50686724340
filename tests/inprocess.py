"""A student's search run in the test's own process, with the grader's own
stand-ins installed as the worker installs them (``grader.harness.runtime.standins``):
the trace of its counted calls comes out as the worker's tally lines would,
in order, for the facts to be read from without a sandbox."""

import math
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

from grader.contracts import protocol
from grader.games import nim
from grader.games.isolation import rules as isolation_rules
from grader.games.nim import rules as nim_rules
from grader.games.nim import variants as nim_variants
from grader.games.tictactoe import rules as lab_rules
from grader.games.tree import rules as tree_rules
from grader.harness.runtime import standins

Trace = list[tuple[str, str]]


def module(source: str, name: str = "student") -> types.ModuleType:
    """The student's ``source`` as a module; the course's ``nim`` is there to import."""
    made = types.ModuleType(name)
    before = sys.modules.get("nim")
    sys.modules["nim"] = nim_rules
    try:
        exec(compile(source, f"{name}.py", "exec"), vars(made))  # noqa: S102 (the test's own)
    finally:
        if before is None:
            del sys.modules["nim"]
        else:
            sys.modules["nim"] = before
    return made


class Lines:
    """The tally lines the stand-ins send, kept as (kind, label) in order."""

    def __init__(self) -> None:
        self.trace: Trace = []

    def __call__(self, data: bytes) -> None:
        for line in data.decode().splitlines():
            self.trace.append((line[:1], line[2:]))


def _install(owner: object, made: dict[tuple[str, bool], Callable[..., object]],
             names: Iterable[str], limited: bool) -> dict[str, object]:
    saved = {name: vars(owner).get(name) for name in names}
    for name in names:
        setattr(owner, name, made[name, limited])
    return saved


def _run(owner: object, made: dict[tuple[str, bool], Callable[..., object]],
         names: Iterable[str], limited: bool, call: Callable[[], Any]) -> Any:
    names = list(names)
    saved = _install(owner, made, names, limited)
    try:
        return call()
    except (RecursionError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return exc
    finally:
        for name, value in saved.items():
            if value is None:
                delattr(owner, name)
            else:
                setattr(owner, name, value)


def isolation(student: types.ModuleType, name: str, state: Any, *args: Any,
              trusted: Iterable[str] = ()) -> tuple[Any, Trace]:
    """``name(state, *args)`` of the student's lesson module, the grader's
    counting terminal_test (and ``trusted`` functions) standing in."""
    kit = standins.kit("isolation")
    kit.keep_trees({kit.TREE: tree_rules})
    lines = Lines()
    trusted = list(trusted)
    made = kit.stand_ins(student, isolation_rules, lines, {"counted", *trusted})
    value = _run(student, made, ["terminal_test", *trusted], bool(args),
                 lambda: getattr(student, name)(state, *args))
    return value, lines.trace


def lab(student: types.ModuleType, name: str, board: str, *window: int) -> tuple[Any, Trace]:
    """The student's ``Game().name(*window)`` on ``board``, the grader's is_end
    and its copy of the other function standing in."""
    kit = standins.kit("tictactoe")
    partner = {"max": "min", "min": "max", "max_alpha_beta": "min_alpha_beta",
               "min_alpha_beta": "max_alpha_beta"}[name]
    lines = Lines()
    made = kit.stand_ins(student, lab_rules, lines, {"counted", partner})
    game = student.Game()
    game.current_state = lab_rules.rows(board)
    game.player_turn = "O" if board.count("X") > board.count("O") else "X"
    found = _run(student.Game, made, ["is_end", partner], False,
                 lambda: getattr(game, name)(*window))
    return found, lines.trace


def negamax(student: types.ModuleType, game: Any, player: str, depth: int
            ) -> tuple[Any, Trace]:
    """The student's ``minimax(game, player, depth, score)`` on the grader's
    counting game and score function."""
    kit = standins.kit("nim")
    lines = Lines()
    trusted = kit.load("", [], {kit.RULES: nim_rules, kit.VARIANTS: nim_variants})
    convert, _ = kit.arguments(trusted, lines)
    found = _run(student, {}, [], False, lambda: student.minimax(
        convert(nim.describe(game)), player, depth, convert(["score"])))
    return found, lines.trace


def tested(trace: Trace) -> list[str]:
    return [label for kind, label in trace if kind == protocol.TESTED.decode()[0]]


INF = math.inf


class IsolationStudent:
    """``traces.Student`` in the test's process: the student's lesson module
    asked about a node, its own functions throughout (``trusted``: the
    grader's stand in for those, as in the test)."""

    def __init__(self, student: types.ModuleType, trusted: Iterable[str] = ()) -> None:
        self.student = student
        self.trusted = list(trusted)

    def _call(self, node: Any) -> tuple[Any, Trace]:
        function = "min_value" if node.minimising else "max_value"
        args = (*(node.window or ()), *([] if node.depth is None else [node.depth]))
        return isolation(self.student, function, node.state, *args,
                         trusted=[t for t in self.trusted if t != function])

    def value(self, node: Any) -> Any:
        return self._call(node)[0]

    def again(self, node: Any) -> list[str]:
        return tested(self._call(node)[1])


class LabStudent:
    """``traces.Student`` in the test's process for the lab's ``name``."""

    def __init__(self, student: types.ModuleType, name: str) -> None:
        self.student = student
        self.name = name

    def _call(self, node: Any) -> tuple[Any, Trace]:
        return lab(self.student, self.name, node.state, *(node.window or ()))

    def value(self, node: Any) -> Any:
        found = self._call(node)[0]
        return found[0] if isinstance(found, tuple) and len(found) == 3 else found

    def again(self, node: Any) -> list[str]:
        return tested(self._call(node)[1])
