"""Where a student's search first departs from the reference, read from the order
of its counted calls.

A search's counted calls (``terminal_test``, the lab's ``is_end``) name the
positions it tested, in the order it tested them: a correct search tests
each node once, as it enters it, so the order is the search's walk of the
tree. The reference is recorded as it searches the same case (``Node``: each
call with its position, its depth and window, its children and the value it
returned). Walking both orders side by side, the first position where they
differ says what the student's search did there that a correct one does not:
tested a node twice, went below the depth, left a node unsearched, went on
after the bound was reached, stopped before it, searched a move again.

Up to that position both searches tested the same positions in the same
order; what is said of the reference there (its window, the value its moves
had reached) is the reference's, and what is said of the student's search is
only what its calls show: where it went next.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

Move = Any  # a game's move, as its family writes it


@dataclass(eq=False)
class Node:
    """One call of the reference search: where, how, and what came of it."""

    label: str  # the position, as the counted calls name it
    state: Any
    path: tuple[Move, ...]  # the moves from the case's position to this one
    minimising: bool
    depth: int | None = None
    window: tuple[float, float] | None = None  # (alpha, beta) it was called with
    tests: int = 0  # its counted calls on its own position
    children: list["Node"] = field(default_factory=list)
    value: Any = None
    parent: "Node | None" = None

    def so_far(self, count: int) -> Any:
        """The node's value once its first ``count`` children have answered."""
        values = [child.value for child in self.children[:count]]
        return (min if self.minimising else max)(values) if values else None


@dataclass
class Divergence:
    """The first place the student's search leaves the reference's walk.

    ``kind`` is one of: "tested_twice" (the node's position tested again at
    once, before its moves), "past_depth" (a move of a node the reference
    reaches at depth 0), "not_searched" (none of a node's moves searched where
    the reference searches them), "no_cutoff" (a move searched after the
    reference returned at the bound: ``done`` of its moves searched),
    "stopped_early" (the student's search left ``node`` with ``done`` of its
    moves searched, where the reference goes on), "searched_again" (a move of
    the node searched a second time), "elsewhere" (``went``, a position that
    no move of the nodes walked leads to, tested after ``node``); ``move`` is
    the move the student's search went on to, where it went on."""

    kind: str
    node: Node
    move: Move | None = None
    done: int = 0
    went: str | None = None


# Tests of one position in a row, to the end of a search that raised or was
# stopped, that show a search that never moves on: far more than any node's
# own tests (the lab's is_end, asked once for each outcome, makes three).
AGAIN = 25


def same_position(trace: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """(kind, label) where the student's search was seen to search a position
    from itself: "entered" where a stand-in of the grader's was entered on the
    position its caller had just tested ("t" then "e" on one label), "again"
    where the trace ends with one position tested ``AGAIN`` times in a row
    (a search that calls itself on the position it was given); else None."""
    previous = None
    for kind, label in trace:
        if kind == "e" and previous == ("t", label):
            return "entered", label
        previous = kind, label
    tested = [label for kind, label in trace if kind == "t"]
    if len(tested) >= AGAIN and len(set(tested[-AGAIN:])) == 1:
        return "again", tested[-1]
    return None


def preorder(root: Node) -> Iterator[Node]:
    """The nodes in the order their positions are tested, each once a test."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield from [node] * node.tests
        stack += reversed(node.children)


def first_divergence(root: Node, tested: Sequence[str],
                     moves: Callable[[Node], dict[str, Move]]) -> Divergence | None:
    """Where the student's tests ``tested`` (labels, in order) first leave the
    reference's, walked from ``root`` (a node of no test of its own, for a
    decision whose root is not tested); None where they never do, or where
    what the student did there has no name here. ``moves(node)`` maps the
    labels of a node's children to the moves that make them."""
    walk = list(preorder(root))
    at = next((i for i, (ours, theirs) in enumerate(zip(walk, tested, strict=False))
               if ours.label != theirs), min(len(walk), len(tested)))
    if at == len(walk) == len(tested):
        return None
    last = walk[at - 1] if at else None
    due = walk[at] if at < len(walk) else None
    went = tested[at] if at < len(tested) else None
    if last is not None and went == last.label:
        return Divergence("tested_twice", last) if last.children else None
    if last is not None and not last.children and went in moves(last):
        return Divergence("past_depth", last, moves(last)[went])
    if last is not None and last.children and due is last.children[0] and \
            went not in moves(last):
        return Divergence("not_searched", last)
    return _left(last or root, due, went, moves, root)


def _left(last: Node, due: Node | None, went: str | None,
          moves: Callable[[Node], dict[str, Move]], root: Node) -> Divergence | None:
    """Where the student's search went after ``last``'s subtree, against where
    the reference went (``due``; None when it was done)."""
    # the node whose move the student's search took: ``last`` or one above it
    above: Node | None = last
    while above is not None and (went is None or went not in moves(above)):
        above = above.parent
    if went is not None and above is None:
        return Divergence("elsewhere", last, went=went)
    taking = due.parent if due is not None else None
    if taking is not None and (above is None or _below(taking, above)):
        # the student's search left ``taking`` before the move the reference takes next
        assert due is not None  # (``taking`` is its parent)
        return Divergence("stopped_early", taking, due.path[-1], taking.children.index(due))
    if above is None:
        return None
    move = moves(above)[went] if went is not None else None
    done = [child.path[-1] for child in above.children]
    if move in done[:_reached(above, taking, due)]:
        return Divergence("searched_again", above, move)
    if above is not taking:  # the reference had left ``above``: at its bound
        return Divergence("no_cutoff", above, move, len(above.children))
    return None  # the same node, another move: an order of its own


def _reached(node: Node, taking: Node | None, due: Node | None) -> int:
    """How many of ``node``'s children the reference had searched by now."""
    if node is taking and due is not None:
        return node.children.index(due)
    return len(node.children)


def _below(node: Node, above: Node) -> bool:
    """Whether ``above`` is a proper ancestor of ``node``."""
    parent = node.parent
    while parent is not None:
        if parent is above:
            return True
        parent = parent.parent
    return False
