"""Facts about a student's search on a game of the lesson's kind, from its trace.

The smallest failing case is asked once more with its counted calls kept in
order (``SearchProbe.traced``); the reference searches the same case with
each of its calls recorded (``record``), and the first place the two walks
part (``grader.harness.judging.traces``) is said in the lesson's terms, with
the hint that follows from it.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from grader.games import Path, State
from grader.harness.isolation.known import Rules
from grader.harness.isolation.search import Search
from grader.harness.judging import traces
from grader.harness.judging.checks import Observation
from grader.harness.judging.facts import Fact
from grader.harness.judging.probes import SearchProbe
from grader.harness.judging.traces import Divergence, Node


class Recorder:
    """Records a reference search's calls as ``Node``s below ``root`` (the
    case's position): its own min_value and max_value, wrapped on the
    instance, and its terminal tests, each charged to the call that made it."""

    def __init__(self, search: Search, root: State) -> None:
        self.game = search.game
        self.root = Node(self.game.label(root), root, (), minimising=False)
        self.stack = [self.root]
        for name, minimising in (("min_value", True), ("max_value", False)):
            setattr(search, name, self._wrapped(getattr(search, name), minimising))
        test = search.terminal_test

        def terminal_test(state: State, *flaws: Any) -> bool:
            self.stack[-1].tests += 1
            return test(state, *flaws)

        search.terminal_test = terminal_test  # type: ignore[method-assign,assignment]

    def _wrapped(self, search: Callable[..., Any], minimising: bool) -> Callable[..., Any]:
        def call(state: State, *args: Any) -> Any:
            parent = self.stack[-1]
            node = Node(self.game.label(state), state, parent.path + self._move(parent, state),
                        minimising, args[-1] if args else None,
                        (args[0], args[1]) if len(args) == 3 else None, parent=parent)
            parent.children.append(node)
            self.stack.append(node)
            try:
                node.value = search(state, *args)
            finally:
                self.stack.pop()
            return node.value

        return call

    def _move(self, parent: Node, state: State) -> Path:
        """The move from ``parent`` to ``state`` (none for the case's own position)."""
        key = self.game.key(state)
        if parent is self.root and key == self.game.key(parent.state):
            return ()
        return tuple(m for m in self.game.legal_moves(parent.state)
                     if self.game.key(self.game.play(parent.state, m)) == key)[:1]

    def tree(self) -> Node:
        """The recorded search: the case's own call, where it was one call on
        the case's position, else the root of the calls made (a decision's)."""
        [only] = self.root.children if len(self.root.children) == 1 else [None]
        if only is not None and not only.path:
            only.parent = None
            return only
        return self.root


def children(game: Rules) -> Callable[[Node], dict[str, Any]]:
    """``moves`` of ``traces.first_divergence`` for ``game``."""
    def moves(node: Node) -> dict[str, Any]:
        return {game.label(game.play(node.state, m)): m for m in game.legal_moves(node.state)}

    return moves


def _number(value: Any) -> str:
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


def _moves(path: Iterable[Any]) -> str:
    return ", ".join(f"({x}, {y})" for x, y in path)


def _the_moves(path: Sequence[Any]) -> str:
    """"the move (0, 1)", "the moves (0, 1), (1, 0)"."""
    return f"the move{'s' if len(path) > 1 else ''} {_moves(path)}"


def _at(node: Node) -> str:
    if not node.path:
        return "On the position above"
    return f"After {_the_moves(node.path)} from the position above"


def _function(node: Node) -> str:
    return "min_value" if node.minimising else "max_value"


def _bound(node: Node) -> str:
    """The bound a node is cut at, and its value, from its window."""
    assert node.window is not None  # an alpha-beta node
    return f"alpha = {_number(node.window[0])}" if node.minimising else \
        f"beta = {_number(node.window[1])}"


def said(divergence: Divergence) -> Fact | None:
    """The fact a divergence shows, in the lesson's words."""
    node, kind = divergence.node, divergence.kind
    at = _at(node)
    if kind == "tested_twice":
        return Fact("terminal_test_twice", f"{at}, your search calls terminal_test twice in a "
                                           "row before it searches the moves there")
    if kind == "past_depth":
        reached = "called with depth 0" if not node.path else \
            f"which a correct search reaches with depth 0 ({len(node.path)} moves down)"
        return Fact("searches_past_depth", f"{at}, {reached}, a correct search returns at once; "
                                           f"your search goes on to "
                                           f"{_the_moves([divergence.move])}")
    if kind == "not_searched":
        left = f", with depth {node.depth} left" if node.depth is not None else ""
        return Fact("search_stops_early", f"{at}, where the game is not over{left}, a correct "
                                          "search goes on to test the positions after its "
                                          "moves; your search tests none of them")
    if kind == "elsewhere":
        return None  # on the trusted states, no move of the search leads there
    if kind == "searched_again":
        return Fact("move_searched_twice", f"{at}, your search searches "
                                           f"{_the_moves([divergence.move])} a second time")
    done = node.children[:divergence.done]
    moves = _the_moves([c.path[-1] for c in done])
    if node.window is None:
        if kind != "stopped_early":
            return None
        return Fact("moves_left_unsearched", f"{at}, your search stops after "
                                             f"{len(done)} of its moves: "
                                             f"{_the_moves([divergence.move])} is never searched "
                                             "there")
    value = _number(node.so_far(len(done)))
    where = f"{at} ({_function(node)}, called with alpha = {_number(node.window[0])}, " \
            f"beta = {_number(node.window[1])})"
    if kind == "no_cutoff":
        reach = "equals" if node.so_far(len(done)) == node.window[1 - node.minimising] else \
            "is below" if node.minimising else "is above"
        return Fact("no_cutoff_at_bound", f"{where}, a correct search returns after {moves}: "
                                          f"they bring v to {value}, which {reach} "
                                          f"{_bound(node)}. Your search goes on to "
                                          f"{_the_moves([divergence.move])}")
    return Fact("cutoff_before_bound", f"{where}, after {moves} v is {value}, short of "
                                       f"{_bound(node)}, so a correct search goes on to "
                                       f"{_the_moves([divergence.move])}; your search returns "
                                       "there")


def traced_fact(probe: SearchProbe, name: str, state: State, extra: tuple[Any, ...],
                reference: Callable[[Search], Any], search: Search,
                trusted: Sequence[str] = ()) -> Fact | None:
    """The fact the student's ``name(state, *extra)``, asked again with its
    calls traced, shows against ``search`` run as ``reference(search)``."""
    _, trace = probe.traced(name, state, *extra, trusted=trusted)
    return trace_fact(trace, state, reference, search)


def trace_fact(trace: Sequence[tuple[str, str]], state: State,
               reference: Callable[[Search], Any], search: Search) -> Fact | None:
    """The fact a student's trace on ``state`` shows against ``search`` run as
    ``reference(search)`` on the same case, or None."""
    recorder = Recorder(search, state)
    reference(search)
    tree = recorder.tree()
    again = traces.same_position(trace)
    if again:
        return _same_position(tree, *again)
    tested = [label for kind, label in trace if kind == "t"]
    divergence = traces.first_divergence(tree, tested, children(search.game))
    return said(divergence) if divergence else None


def _same_position(tree: Node, kind: str, label: str) -> Fact:
    """The fact of a search seen to search a position from itself."""
    node = next((n for n in traces.preorder(tree) if n.label == label), tree)
    at = _at(node)
    if kind == "entered":
        caller, called = ("min_value", "max_value") if node.minimising else \
            ("max_value", "min_value")
        return Fact("recursion_on_same_position", f"{at}, your {caller} calls {called} (the "
                                                  "grader's, standing in for yours) on that "
                                                  "very position, not on the position after "
                                                  "one of its moves")
    return Fact("recursion_on_same_position", f"{at}, your search tests that very position "
                                              f"{traces.AGAIN} times in a row and never one "
                                              "after a move, until it stops: it searches the "
                                              "position it was given again, not the one a "
                                              "move leads to")


def smallest_facts(observations: Sequence[Observation],
                   ask: Callable[[Observation], Fact | None]) -> list[Fact]:
    """The fact ``ask`` sees on the smallest wrong case, if any."""
    first = next((o for o in observations if not o.ok), None)
    fact = ask(first) if first is not None else None
    return [fact] if fact else []
