"""Facts about a student's search on a game of the lesson's kind, from its trace.

The smallest failing case is asked once more with its counted calls kept in
order (``SearchProbe.traced``); the reference searches the same case with
each of its calls recorded (``record``), and the first place the two walks
part (``grader.harness.checking.traces``) is said in the lesson's terms, with
the hint that follows from it.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from grader.games import Path, State
from grader.harness.checking import facts, traces
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import CASES, Fact, first_hinted
from grader.harness.checking.probes import SearchProbe
from grader.harness.checking.traces import Divergence, Node
from grader.harness.lesson.known import Rules
from grader.harness.lesson.search import Search
from grader.harness.runtime.faults import OutOfTurn, Raised, StudentFault


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


ABOVE = "the position above"  # the case the report draws


def _at(node: Node, origin: str) -> str:
    """Where ``node`` is, from the case's position (``origin``)."""
    if not node.path:
        return f"On {origin}"
    return f"After {_the_moves(node.path)} from {origin}"


def _function(node: Node) -> str:
    return "min_value" if node.minimising else "max_value"


def _bound(node: Node) -> str:
    """The bound a node is cut at, and its value, from its window."""
    assert node.window is not None  # an alpha-beta node
    return f"alpha = {_number(node.window[0])}" if node.minimising else \
        f"beta = {_number(node.window[1])}"


def said(divergence: Divergence, checked: bool = False, origin: str = ABOVE) -> Fact | None:
    """The fact a divergence shows, in the lesson's words. A position tested
    twice names its hint only where it is ``checked`` (nothing else differs:
    ``traces.only_repeated``), and so does a window's divergence (the student's
    code gives the moves it rests on the reference's values: ``traces.resting``)."""
    node, kind = divergence.node, divergence.kind
    at = _at(node, origin)
    if kind == "tested_twice":
        return Fact("terminal_test_twice" if checked else None,
                    f"{at}, your search calls terminal_test twice in a row on that position"
                    + ("; but for such tests twice in a row, its walk is a correct search's"
                       if checked else ""))
    if kind == "untested":
        return Fact("terminal_test_inline", f"{at}, your search goes on to "
                                            f"{_the_moves([divergence.move])} without calling "
                                            "terminal_test on the position first")
    if kind == "past_depth":
        reached = "called with depth 0" if not node.path else \
            f"which a correct search reaches with depth 0 ({len(node.path)} " \
            f"move{'s' if len(node.path) > 1 else ''} down)"
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
    same = " Your code gives the positions after " + \
        ("that move a value" if len(done) == 1 else "those moves values") + \
        " a correct search may give them." if checked else ""
    if kind == "no_cutoff":
        reach = "equals" if node.so_far(len(done)) == node.window[1 - node.minimising] else \
            "is below" if node.minimising else "is above"
        return Fact("no_cutoff_at_bound" if checked else None,
                    f"{where}, a correct search returns after {moves}: "
                    f"{'it brings' if len(done) == 1 else 'they bring'} v to {value}, "
                    f"which {reach} {_bound(node)}.{same} Your search goes on to "
                    f"{_the_moves([divergence.move])}")
    return Fact("cutoff_before_bound" if checked else None,
                f"{where}: once {moves} {'is' if len(done) == 1 else 'are'} searched, v is "
                f"{value}, short of {_bound(node)}, so a correct search goes on to "
                f"{_the_moves([divergence.move])}.{same} Your search returns there")


def value_fact(node: Node, got: Any, over: bool, origin: str = ABOVE, gives: bool = True
               ) -> Fact:
    """The fact of the deepest node whose value the student's code gives
    otherwise than a correct search, the values of its moves being right
    (``traces.localized``; ``over``: the game is over there). ``gives``: the
    student's call was seen to score those moves with the function that gives
    them those values (its own, asked on them; or the grader's, standing in,
    entered on each of them); where it was not, the fact says so instead."""
    args = [*(node.window or ()), *([] if node.depth is None else [node.depth])]
    call = f"{_function(node)}({', '.join(['state', *map(_number, args)])})"
    if facts.crashed(got):
        return Fact(None, f"{_at(node, origin)}, your {call} {facts.crashed(got)}{facts.CRASH}")
    got = str(got) if isinstance(got, StudentFault) else _number(got)
    due = _number(node.value)
    if over:
        return Fact("terminal_value_wrong", f"{_at(node, origin)}, where the game is over, "
                                            f"your {call} returns {got}, where {due} is due")
    if not node.children:
        return Fact("cutoff_scored_as_terminal" if got in ("1", "-1") else None,
                    f"{_at(node, origin)}, where the game is not over, your {call} returns "
                    f"{got} at the cutoff, where {due} is due")
    values = [child.value for child in node.children]
    other = (max if node.minimising else min)(values)
    if node.window is None and got == _number(other) and other != node.value:
        # the value of an end move as well, where it is: one node does not tell
        # them apart (``_takes_other_extreme``)
        end = "last" if got == _number(values[-1]) else "first" if got == _number(values[0]) \
            else ""
        return Fact("aggregation_swapped",
                    f"{_at(node, origin)}, your {call} returns {got}, the "
                    f"{'largest' if node.minimising else 'smallest'} of the values of its moves "
                    f"({_values(values)}){f' and the value of its {end} one' if end else ''}, "
                    f"where the {'smallest' if node.minimising else 'largest'}, {due}, is due")
    first = " (the value of its first move)" if got == _number(values[0]) else ""
    scored = "and your code gives them those values" if gives else \
        f"yet your {_function(node)} does not score each of them with " \
        f"{_function(node.children[0])} (the grader's, standing in for yours)"
    return Fact(None, f"{_at(node, origin)}, your {call} returns {got}{first}, where a correct one "
                      f"returns {due}: its moves are worth {_values(values)}, {scored}")


def _values(values: Iterable[Any]) -> str:
    return ", ".join(_number(v) for v in values)


class Asked:
    """The student's functions of ``probe``'s module, asked about a node of the
    reference (``traces.Student``): its value, or its walk, when called on the
    node's position with the node's window and depth; the grader's functions
    named in ``trusted`` stand in for the others, as in the test."""

    def __init__(self, probe: SearchProbe, trusted: Sequence[str]) -> None:
        self.probe = probe
        self.trusted = list(trusted)

    def _call(self, node: Node) -> tuple[str, tuple[Any, ...], list[str]]:
        function = _function(node)
        args = (*(node.window or ()), *([] if node.depth is None else [node.depth]))
        return function, args, [other for other in self.trusted if other != function]

    def value(self, node: Node) -> Any:
        function, args, trusted = self._call(node)
        answer = self.probe.values(function, [(node.state, node.path)], *args, trusted=trusted)
        try:
            return answer(node.state, node.path)
        except StudentFault as fault:
            return fault

    def again(self, node: Node) -> list[str]:
        function, args, trusted = self._call(node)
        _, trace = self.probe.traced(function, node.state, *args, trusted=trusted)
        return [label for kind, label in trace if kind == "t"]


def traced_fact(probe: SearchProbe, name: str, state: State, extra: tuple[Any, ...],
                reference: Callable[[Search], Any], search: Search,
                trusted: Sequence[str] = (), origin: str = ABOVE) -> Fact | None:
    """The fact the student's ``name(state, *extra)``, asked again with its
    calls traced, shows against ``search`` run as ``reference(search)``."""
    got, trace = probe.traced(name, state, *extra, trusted=trusted)
    crashed = got if isinstance(got, Raised) and not isinstance(got, OutOfTurn) else None
    return trace_fact(trace, state, reference, search, Asked(probe, trusted),
                      2 if trusted else 1, origin, crashed)


def trace_fact(trace: Sequence[tuple[str, str]], state: State,
               reference: Callable[[Search], Any], search: Search,
               student: traces.Student | None = None, levels: int = 1,
               origin: str = ABOVE, crashed: Raised | None = None) -> Fact | None:
    """The fact a student's trace on ``state`` shows against ``search`` run as
    ``reference(search)`` on the same case, or None, said from ``origin`` (how
    the report names ``state``). ``student`` is asked about the nodes a
    window's divergence rests on and, where the walks are the same but the
    case's value is wrong, those below it down to the wrong one (``levels``:
    2 where the grader's own function stands in for the student's other,
    between their levels). A search that tested nothing shows nothing (its
    tests may be another module's, or its fault the report's story). Where
    the call raised (``crashed``) and its walk ends short, the crash is what
    it did there, never a search mistake; where its walk leaves a node at
    depth 0 or with depth left, the student's function is asked on that node
    alone before its own behaviour there is stated (``_alone``)."""
    recorder = Recorder(search, state)
    reference(search)
    tree = recorder.tree()
    again = traces.same_position(trace)
    if again:
        return _same_position(tree, *again, origin)
    tested = [label for kind, label in trace if kind == "t"]
    moves = children(search.game)
    divergence = traces.first_divergence(tree, tested, moves)
    if crashed is not None and (divergence is None or divergence.kind in traces.SHORT):
        return crash_fact(crashed, divergence.node if divergence else None, origin)
    if divergence is not None and divergence.kind in _ALONE and student is not None:
        alone = _alone(divergence, student, moves, origin)
        if alone is not None:
            return alone
    if divergence is None:
        wrong = traces.localized(tree, student.value, levels) \
            if student is not None and tree.tests else None
        if not wrong:
            return None
        entered = {label for kind, label in trace if kind == "e"}
        gives = levels == 1 or all(child.label in entered for child in wrong[0].children)
        fact = value_fact(*wrong, search.game.terminal(wrong[0].state), origin, gives)
        if fact.hint == "aggregation_swapped" and student is not None and \
                not _takes_other_extreme(tree, *wrong, student):
            return Fact(None, fact.says)
        return fact
    if divergence.kind == "tested_twice":
        return said(*traces.told_apart(divergence, tree, tested,
                                       student.again if student else lambda node: None), origin)
    if divergence.kind not in traces.WINDOWED or divergence.node.window is None or \
            student is None:
        return said(divergence, origin=origin)
    seen = traces.windowed(divergence, student, lambda node: node.window is not None, moves)
    if seen is None:
        return said(divergence, origin=origin)
    found, got = seen
    if found.kind == "value":
        return value_fact(found.node, got, search.game.terminal(found.node.state), origin)
    if found.kind == "passed":
        return passed_fact(found.node, origin)
    return said(found, True, origin)


def _takes_other_extreme(tree: Node, wrong: Node, got: Any, student: traces.Student) -> bool:
    """Whether "yours keeps the other extreme" is what the student's function
    does: where its answer on ``wrong`` is also the value of its first or last
    move, a node of its own whose other extreme is neither is asked too (a
    max_value that returns its last child's value takes the smallest wherever
    that is the last one). False where no node of the tree tells them apart."""
    values = [child.value for child in wrong.children]
    if got not in (values[0], values[-1]):
        return True
    for node in traces.preorder(tree):
        values = [child.value for child in node.children]
        if node.minimising != wrong.minimising or len(values) < 3:
            continue
        other = (max if node.minimising else min)(values)
        if other not in (values[0], values[-1], node.value):
            found = student.value(node)
            return type(found) in (int, float) and found == other
    return False


def crash_fact(crashed: Raised, node: Node | None, origin: str = ABOVE) -> Fact:
    """The fact of a call that raised where its walk ended: the error, said as
    the error (no hint: the search past it was never seen)."""
    at = _at(node, origin) if node is not None else f"On {origin}"
    return Fact(None, f"{at}, your code {facts.crashed(crashed)} and the search stopped there"
                      f"{facts.CRASH}")


# The divergences that state what the student's function does at one node by
# its depth, checked there with the function called alone.
_ALONE = ("not_searched", "past_depth")


def _alone(divergence: Divergence, student: traces.Student,
           moves: Callable[[Node], dict[str, Any]], origin: str) -> Fact | None:
    """None where the student's function, called on the divergence's node alone
    with that node's own depth (and window), does there what its walk did (the
    divergence's own fact holds); else the fact that it does not: the depth
    (or window) the search reaches that node with is not a correct search's."""
    node = divergence.node
    if node.depth is None or not node.path:
        return None  # no depth to hold the walk to, or the case's own call
    searched = any(label in moves(node) for label in student.again(node))
    if searched == (divergence.kind == "past_depth"):
        return None
    walk, alone = ("goes on to the positions after its moves", "returns at once") \
        if not searched else ("tests none of the positions after its moves",
                                   "searches them")
    window = "" if node.window is None else \
        f" and alpha = {_number(node.window[0])}, beta = {_number(node.window[1])}"
    # Past depth 0, the depth alone decides; short of it, a window may too
    # (a prune test at the loop's top returns before the first move).
    hint = "searches_past_depth" if not searched else \
        "depth_passed_wrong" if node.window is None else None
    what = "depth" if not searched or node.window is None else "depth or window"
    return Fact(hint, f"{_at(node, origin)}, which a correct search reaches with depth "
                      f"{node.depth}{window}, your search {walk}; yet your {_function(node)}, "
                      f"called on that position alone with depth {node.depth}{window}, {alone}: "
                      f"the {what} your search reaches that position with is not a correct "
                      "search's (its parent's depth - 1)")


def passed_fact(node: Node, origin: str = ABOVE) -> Fact:
    """The fact of a call whose calls below, each called with a correct
    search's window, search right, yet search otherwise within it."""
    if node.window is None:
        caller = "your decision (alpha_beta_search)"
    else:
        caller = f"{_at(node, origin)}, your {_function(node)} (called with alpha = " \
                 f"{_number(node.window[0])}, beta = {_number(node.window[1])})"
    called = "min_value" if node.window is None or not node.minimising else "max_value"
    return Fact("window_passed_wrong", f"{caller[0].upper()}{caller[1:]} passes the positions "
                                       "after its moves another window than a correct search "
                                       f"does: your {called}, called on each of them directly "
                                       "with the window a correct search passes, searches it "
                                       "right, yet within this call they are searched "
                                       "otherwise")


def _same_position(tree: Node, kind: str, label: str, origin: str) -> Fact:
    """The fact of a search seen to search a position from itself."""
    node = next((n for n in traces.preorder(tree) if n.label == label), tree)
    at = _at(node, origin)
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
                   ask: Callable[[Observation, str], Fact | None]) -> list[Fact]:
    """The fact ``ask(case, origin)`` sees on the smallest wrong case (said from
    ``origin``, how the report names the case) that shows one with a hint:
    the smallest, then the smallest of each other depth, ``CASES`` at most;
    else the first fact seen, if any. What a small case shows may come of
    more than one mistake (a leaf tested twice, say), which a deeper one
    tells apart."""
    wrong = [o for o in observations if not o.ok]
    cases = list({str(o.extra): o for o in reversed(wrong)}.values())[::-1]
    cases = [wrong[0], *(case for case in cases if case is not wrong[0])][:CASES] \
        if wrong else []
    return first_hinted(cases, lambda case: ask(case, origin(case, wrong[0])))


def origin(case: Observation, first: Observation) -> str:
    """How a report names a case: the drawn one as "the position above"."""
    if case is first:
        return ABOVE
    depth = case.extra.get("depth")
    at = "at the start of the game" if not case.path else \
        f"after the moves {_moves(case.path)}"
    return f"the position {at}" + (f" (called with depth {depth})" if depth is not None else "")
