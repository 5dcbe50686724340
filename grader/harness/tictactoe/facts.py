"""Facts about a student's lab search, from the order of its is_end calls.

The smallest wrong board is searched once more with the student's is_end
calls kept in order (the grader's is_end counts them, and the grader's copy
of the other function stands in, as in the tests); the reference searches the
same board, each call recorded (``record``), and the first place the two
walks part (``grader.harness.checking.traces``) is said in the lab's words.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from grader.games import tictactoe
from grader.games.tictactoe import EMPTY
from grader.harness.checking import traces
from grader.harness.checking.facts import CRASH, Fact, crashed
from grader.harness.checking.traces import Divergence, Node
from grader.harness.tictactoe.search import LabSearch

Move = tuple[str, tuple[int, int]]  # the mark placed, and its cell


def _mark(maximising: bool) -> str:
    return "O" if maximising else "X"


def record(board: str, maximising: bool, alpha_beta: bool) -> Node:
    """The reference's search of ``board`` by max() (``maximising``) or min(),
    every call a ``Node`` (none answered from what an earlier one found)."""
    search = LabSearch(alpha_beta=alpha_beta)
    top = Node(board, board, (), minimising=not maximising)
    stack = [top]

    def node(cells: list[str], maximising: bool, alpha: int, beta: int, calls: list[str],
             kept: bool = False) -> Any:
        here = "".join(cells)
        parent = stack[-1]
        made = Node(here, here, parent.path + _placed(parent.state, here), not maximising,
                    window=(alpha, beta) if alpha_beta else None, tests=1, parent=parent)
        parent.children.append(made)
        stack.append(made)
        try:
            answer = search._search(cells, here, maximising, alpha, beta, calls)
        finally:
            stack.pop()
        made.value = answer[0]
        return answer

    search._node = node  # type: ignore[method-assign]
    search.run(board, maximising)
    [root] = top.children
    root.path, root.parent = (), None
    return root


def _placed(before: str, after: str) -> tuple[Move, ...]:
    """The mark placed from ``before`` to ``after``, with its cell (none if the same)."""
    return tuple((after[i], divmod(i, 3)) for i in range(9)
                 if before[i] == EMPTY and after[i] != EMPTY)[:1]


def moves(node: Node) -> dict[str, Move]:
    """The boards the node's function makes, one a move: ``traces``' moves."""
    if tictactoe.end(node.state) is not None:
        return {}
    mark = _mark(not node.minimising)
    return {tictactoe.place(node.state, row, col, mark): (mark, (row, col))
            for row, col in tictactoe.moves(node.state)}


def _other_mark(node: Node, went: str | None) -> Move | None:
    """The move ``went`` makes from the node's board where it is one empty cell
    taken by the mark of the player not to move there (else None)."""
    if went is None or len(went) != len(node.state):
        return None
    cells = [i for i in range(9) if went[i] != node.state[i]]
    other = _mark(node.minimising)
    if len(cells) != 1 or node.state[cells[0]] != EMPTY or went[cells[0]] != other:
        return None
    return other, divmod(cells[0], 3)


def _played(path: Iterable[Any]) -> str:
    return ", ".join(f"{mark} at {cell}" for mark, cell in path)


def _at(node: Node, origin: str) -> str:
    """Where ``node`` is, from the case's board (``origin``: "the board above")."""
    if not node.path:
        return f"On {origin}"
    return f"After {_played(node.path)} from {origin}"


def _function(node: Node) -> str:
    side = "min" if node.minimising else "max"
    return f"{side}_alpha_beta()" if node.window is not None else f"{side}()"


def _left_marked(divergence: Divergence, origin: str) -> Fact | None:
    """A board tested that is a child of a node walked but for the mark of a
    move tried before it there, still on the board."""
    node: Node | None = divergence.node
    went = divergence.went or ""
    while node is not None:
        for child in node.children:
            mark, (row, col) = child.path[-1]
            cleared = went[:3 * row + col] + EMPTY + went[3 * row + col + 1:]
            if went[3 * row + col] == mark and cleared in moves(node):
                return Fact("mark_not_put_back", f"{_at(node, origin)}, after trying "
                                                 f"{_played(child.path[-1:])}, your search tests "
                                                 f"the board of {_played([moves(node)[cleared]])} "
                                                 f"with {mark} still at {(row, col)}: the cell "
                                                 "was not put back")
        node = node.parent
    return None


def said(divergence: Divergence, alpha_beta: bool, origin: str, checked: bool = False
         ) -> Fact | None:
    """The fact a divergence shows, in the lab's words, from ``origin``; a
    window's divergence names its hint only where it is ``checked`` (the
    student's function gives the boards it rests on the reference's values:
    ``traces.resting``)."""
    node, kind = divergence.node, divergence.kind
    at = _at(node, origin)
    if kind == "elsewhere":
        return _left_marked(divergence, origin)
    if kind == "tested_twice":
        return Fact("is_end_called_twice" if checked else None,
                    f"{at}, your search calls is_end twice in a row on that board")
    if kind == "untested":
        return Fact(None, f"{at}, your search tries {_played([divergence.move])} without "
                          "calling is_end (the class's, which counts) on the board first")
    if kind == "searched_again":
        return Fact("move_searched_twice", f"{at}, your search tries "
                                           f"{_played([divergence.move])} a second time")
    done = node.children[:divergence.done]
    tried = _played(c.path[-1] for c in done)
    wrong_mark = _other_mark(node, divergence.went) if kind == "not_searched" else None
    if wrong_mark:
        mark, cell = wrong_mark
        return Fact("marks_swapped", f"{at}, your {_function(node)} puts {mark} at {cell}: "
                                     "the other player's mark, so it searches boards a "
                                     "correct search never reaches")
    if kind == "not_searched" and not alpha_beta:
        return Fact("search_cut_short", f"{at}, where the game is not over, your search tries "
                                        "none of the empty cells")
    if kind == "stopped_early" and not alpha_beta:
        return Fact("search_cut_short", f"{at}, your search stops after {len(done)} of the "
                                        f"empty cells: {_played([divergence.move])} is never "
                                        "tried there")
    if node.window is None or kind not in ("no_cutoff", "stopped_early"):
        return None
    value = node.so_far(len(done))
    bound = f"alpha = {node.window[0]}" if node.minimising else f"beta = {node.window[1]}"
    where = f"{at} ({_function(node)}, called with alpha = {node.window[0]}, beta = " \
            f"{node.window[1]})"
    same = f" Your {_function(node)} gives the boards below those moves values a correct " \
        "search may give them." if checked else ""
    if kind == "no_cutoff":
        reach = "equals" if value == node.window[1 - node.minimising] else \
            "is below" if node.minimising else "is above"
        return Fact("no_cutoff_at_bound" if checked else None,
                    f"{where}, a correct search returns after {tried}: the best value is then "
                    f"{value}, which {reach} {bound}.{same} Your search goes on to "
                    f"{_played([divergence.move])}")
    return Fact("cutoff_before_bound" if checked else None,
                f"{where}: once {tried} {'is' if len(done) == 1 else 'are'} tried, the best "
                f"value is {value}, short of {bound}, so a correct search goes on to "
                f"{_played([divergence.move])}.{same} Your search returns there")


def value_fact(node: Node, got: Any, origin: str) -> Fact:
    """The fact of the deepest board whose value the student's function gives
    otherwise than a correct one, the boards below it being right
    (``traces.localized``), with the window a correct search calls it with."""
    window = f"{node.window[0]}, {node.window[1]}" if node.window else ""
    call = f"{_function(node)[:-2]}({window})"
    if crashed(got):
        return Fact(None, f"{_at(node, origin)}, your {call} {crashed(got)}{CRASH}")
    if tictactoe.end(node.state) is not None:
        hint = "values_wrong_side" if got == -node.value else None
        return Fact(hint, f"{_at(node, origin)}, where the game is over, your {call} returns "
                          f"{got}, where {node.value} is due")
    return Fact(None, f"{_at(node, origin)}, your {call} returns {got}, where a correct one "
                      f"returns {node.value}, though the boards below it get the right values")


def passed_fact(node: Node, origin: str) -> Fact:
    """The fact of a call whose calls below, each called with a correct
    search's window, search right, yet search otherwise within it."""
    assert node.window is not None  # an alpha-beta node
    other = "min_alpha_beta()" if not node.minimising else "max_alpha_beta()"
    return Fact("window_passed_wrong", f"{_at(node, origin)}, your {_function(node)} (called "
                                       f"with alpha = {node.window[0]}, beta = "
                                       f"{node.window[1]}) passes the boards after its moves "
                                       f"another window than a correct search does: called on "
                                       f"the boards below them directly, with the window a "
                                       f"correct search passes, your function searches each "
                                       f"right, yet within this call, through {other} (the "
                                       "grader's, which passes on what it is given), they are "
                                       "searched otherwise")


def lab_fact(board: str, name: str, trace: Sequence[tuple[str, str]], origin: str,
             student: traces.Student | None = None) -> Fact | None:
    """The fact the student's ``name`` shows on ``board`` by its trace, said
    from ``origin`` (how the report names ``board``); ``student`` is asked
    what the student's ``name`` gives, and how it searches, a node's board
    with its window (``traces.Student``)."""
    alpha_beta = name.endswith("alpha_beta")
    tree = record(board, name.startswith("max"), alpha_beta)
    again = traces.same_position(trace)
    if again:
        node = next((n for n in traces.preorder(tree) if n.label == again[1]), tree)
        return Fact("recursion_on_same_position", f"{_at(node, origin)}, your {_function(node)} "
                                                  "searches that very board again, without "
                                                  "a mark placed")
    tested = [label for kind, label in trace if kind == "t"]
    divergence = traces.first_divergence(tree, tested, moves)
    if divergence is None:
        wrong = traces.localized(tree, student.value, levels=2) if student else None
        return value_fact(*wrong, origin) if wrong else None

    def theirs(node: Node) -> bool:  # the student's function's levels: every other one
        return node.minimising == name.startswith("min")

    if divergence.kind == "tested_twice":
        told, known = traces.told_apart(
            divergence, tree, tested,
            lambda node: student.again(node) if student and theirs(node) else None)
        return said(told, alpha_beta, origin, known)
    if divergence.kind not in traces.WINDOWED or not alpha_beta or student is None:
        return said(divergence, alpha_beta, origin)
    # the student's function runs every other level, the grader's between
    seen = traces.windowed(divergence, student, theirs, moves, levels=2)
    if seen is None:
        return said(divergence, alpha_beta, origin)
    found, got = seen
    if found.kind == "value":
        return value_fact(found.node, got, origin)
    if found.kind == "passed":
        return passed_fact(found.node, origin)
    return said(found, alpha_beta, origin, checked=True)
