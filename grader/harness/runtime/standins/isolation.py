"""Mini-isolation's stand-ins: the grader's terminal_test, min_value and max_value.

The trusted game is the provided ``gamestate`` module (when the student does
not write it: in the gamestate exercise there is nothing to stand in for).
A search can also be handed a small drawn tree behind the same API
(``grader.games.tree``) and, for iterative deepening, a virtual clock.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable, Collection, Mapping

from grader.contracts import protocol

TYPE_CHECKING = False  # typing is for mypy only: importing it slows every start
if TYPE_CHECKING:
    from typing import Any

COUNTED = ("terminal_test",)
TREE = "grader.games.tree.rules"
# The grader's terminal_test calls made in this process so far: what the
# virtual clock runs down by. It only paces the student's search; the verdicts
# count the calls from outside, as they are reported.
_SPENT = [0]
# The drawn trees' rules, as the supervisor sent them (``load``).
_TREES: list[types.ModuleType] = []


def sources(grant: Collection[str]) -> tuple[str, ...]:
    """The trusted games' modules the worker needs: the drawn trees' rules
    (no student writes those); the lesson's own game is the provided file."""
    return (TREE,)


def load(provided: str, module_names: list[str], games: Mapping[str, types.ModuleType]
         ) -> types.ModuleType | None:
    """The provided, trusted game (``grader.contracts.provided``), imported before the
    student's files; None where the student writes the game or none is provided."""
    keep_trees(games)
    if "gamestate" in module_names or not os.path.exists(os.path.join(provided, "gamestate.py")):
        return None
    import gamestate  # type: ignore[import-not-found]  # PROVIDED, on the path at run time

    return gamestate  # type: ignore[no-any-return]  # a module, untyped


def keep_trees(games: Mapping[str, types.ModuleType]) -> None:
    """Keep the drawn trees' rules the supervisor sent (``sources``)."""
    _TREES[:] = [games[TREE]]


def guarded(trusted: types.ModuleType | None) -> list[object]:
    trees = _TREES[0]
    return [trees, trees.TreeState, *([trusted, trusted.GameState] if trusted else [])]


def _clock(budget: int, tick: int = 1, _spent: list[int] = _SPENT) -> Callable[[], int]:
    """``time_left()``: ``budget`` ticks, ``tick`` of them spent by each
    terminal_test call."""
    start = _spent[0]

    def time_left(_budget: int = budget, _tick: int = tick, _start: int = start,
                  _spent: list[int] = _spent) -> int:
        return _budget - _tick * (_spent[0] - _start)

    return time_left


def arguments(trusted: types.ModuleType | None, tick: Callable[[bytes], object]
              ) -> tuple[Callable[[object], object], list[object]]:
    """A position sent as plain data, as a trusted GameState; ``{"tree": ...}``
    as the root of a drawn tree, ``{"clock": ticks, "tick": ticks}`` as a
    virtual clock."""
    def position(data: Any, _trusted: Any = trusted, _tree: Any = _TREES[0].from_data,
                 _clock: Callable[[int, int], object] = _clock) -> object:
        if type(data) is dict and "tree" in data:
            return _tree(data["tree"])
        if type(data) is dict and "clock" in data:
            return _clock(data["clock"], data.get("tick", 1))
        return _trusted.from_data(data)

    return position, [_clock]


def owner(module: types.ModuleType) -> object:
    return module


def _number(value: Any, name: str) -> Any:
    """A child's value, which the stand-in compares: a number, or a clear TypeError."""
    if type(value) not in (int, float):
        raise TypeError(f"{name} returned {protocol.safe_repr(value)} where a number was due "
                        f"(the grader's own {'min_value' if name == 'max_value' else 'max_value'} "
                        f"called it, standing in for yours)")
    return value


def stand_ins(module: types.ModuleType, trusted: types.ModuleType | None,
              tick: Callable[[bytes], object], grant: Collection[str]
              ) -> dict[tuple[str, bool], Callable[..., object]]:
    """The grader's functions that stand in for some of ``module``'s during a call.

    ``terminal_test`` always: it reports each call, with the position it was
    asked about, as a ``t`` line (the student's own ``call_counter`` is never
    read, and no count is kept here for the student's code to change).
    ``min_value`` and ``max_value``, plain and taking a depth, stand in for
    the student's so that the other function is tested alone: each reports
    being entered (an ``e`` line with the position, which the supervisor
    checks follows from the root of the call), tests for the end, then the
    cutoff, and calls back into the module's function of the other kind,
    looked up at call time, for the children. Everything they use is bound
    in defaults. Only those in ``grant`` are made: the process never holds
    the grader's own version of a function under test.
    """
    if trusted is None or not grant:
        return {}
    trees = _TREES[0]

    def terminal_test(gameState: Any, _tick: Callable[[bytes], object] = tick,
                      _label: Callable[[Any], str] = trusted.label,
                      _tree_label: Callable[[Any], str] = trees.label,
                      _tree: type = trees.TreeState, _type: type = type,
                      _spent: list[int] = _SPENT, _tested: bytes = protocol.TESTED) -> bool:
        _spent[0] += 1
        try:
            where = (_tree_label if _type(gameState) is _tree else _label)(gameState).encode()
        except Exception:  # not a trusted state: no position the search visits
            where = b"?"
        _tick(_tested + where + b"\n")
        return not gameState.get_legal_moves()

    def value(gameState: Any, depth: int | None, minimising: bool,
              _terminal: Callable[[Any], bool] = terminal_test,
              _tick: Callable[[bytes], object] = tick, _entered: bytes = protocol.ENTERED,
              _label: Callable[[Any], str] = trusted.label,
              _module: types.ModuleType = module, _getattr: Callable[..., Any] = getattr,
              _number: Callable[[object, str], int | float] = _number) -> int | float | None:
        try:
            where = _label(gameState).encode()
        except Exception:  # not a trusted state: no position that follows from the root
            where = b"?"
        _tick(_entered + where + b"\n")
        if _terminal(gameState):
            return 1 if minimising else -1
        if depth is not None and depth <= 0:
            return 0
        name = "max_value" if minimising else "min_value"
        child = _getattr(_module, name)
        extra = () if depth is None else (depth - 1,)
        best = None
        for move in gameState.get_legal_moves():
            found = _number(child(gameState.forecast_move(move), *extra), name)
            if best is None or (found < best if minimising else found > best):
                best = found
        return best

    def min_value(gameState: Any, _value: Callable[..., int | float | None] = value
                  ) -> int | float | None:
        return _value(gameState, None, True)

    def max_value(gameState: Any, _value: Callable[..., int | float | None] = value
                  ) -> int | float | None:
        return _value(gameState, None, False)

    def min_value_to(gameState: Any, depth: int,
                     _value: Callable[..., int | float | None] = value) -> int | float | None:
        return _value(gameState, depth, True)

    def max_value_to(gameState: Any, depth: int,
                     _value: Callable[..., int | float | None] = value) -> int | float | None:
        return _value(gameState, depth, False)

    made: dict[tuple[str, bool], Callable[..., object]] = {
            ("terminal_test", False): terminal_test, ("terminal_test", True): terminal_test,
            ("min_value", False): min_value, ("max_value", False): max_value,
            ("min_value", True): min_value_to, ("max_value", True): max_value_to}
    granted = {*grant, *(COUNTED if "counted" in grant else ())}
    return {key: function for key, function in made.items() if key[0] in granted}
