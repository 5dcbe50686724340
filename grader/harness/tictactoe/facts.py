"""Facts about a student's lab search, from the order of its is_end calls.

The smallest wrong board is searched once more with the student's is_end
calls kept in order (the grader's is_end counts them, and the grader's copy
of the other function stands in, as in the tests); the reference searches the
same board, each call recorded (``record``), and the first place the two
walks part (``grader.harness.judging.traces``) is said in the lab's words.
"""

from collections.abc import Iterable, Sequence
from typing import Any

from grader.games import tictactoe
from grader.games.tictactoe import EMPTY
from grader.harness.judging import traces
from grader.harness.judging.facts import Fact
from grader.harness.judging.traces import Divergence, Node
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


def said(divergence: Divergence, alpha_beta: bool, origin: str) -> Fact | None:
    """The fact a divergence shows, in the lab's words, from ``origin``."""
    node, kind = divergence.node, divergence.kind
    at = _at(node, origin)
    if kind == "elsewhere":
        return _left_marked(divergence, origin)
    if kind == "tested_twice":
        return Fact("is_end_called_twice", f"{at}, your search calls is_end twice in a row "
                                           "before it tries the empty cells there")
    if kind == "searched_again":
        return Fact("move_searched_twice", f"{at}, your search tries "
                                           f"{_played([divergence.move])} a second time")
    done = node.children[:divergence.done]
    tried = _played(c.path[-1] for c in done)
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
    if kind == "no_cutoff":
        reach = "equals" if value == node.window[1 - node.minimising] else \
            "is below" if node.minimising else "is above"
        return Fact("no_cutoff_at_bound", f"{where}, a correct search returns after {tried}: "
                                          f"the best value is then {value}, which {reach} "
                                          f"{bound}. Your search goes on to "
                                          f"{_played([divergence.move])}")
    return Fact("cutoff_before_bound", f"{where}, after {tried} the best value is {value}, "
                                       f"short of {bound}, so a correct search goes on to "
                                       f"{_played([divergence.move])}; your search returns there")


def lab_fact(board: str, name: str, trace: Sequence[tuple[str, str]], origin: str
             ) -> Fact | None:
    """The fact the student's ``name`` shows on ``board`` by its trace, said
    from ``origin`` (how the report names ``board``)."""
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
    return said(divergence, alpha_beta, origin) if divergence else None

