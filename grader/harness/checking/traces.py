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
from typing import Any, Protocol

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
    once), "untested" (a move of the node searched without
    the node's own test), "past_depth" (a move of a node the reference
    reaches at depth 0), "not_searched" (none of a node's moves searched where
    the reference searches them), "no_cutoff" (a move searched after the
    reference returned at the bound: ``done`` of its moves searched),
    "stopped_early" (the student's search left ``node`` with ``done`` of its
    moves searched, where the reference goes on), "searched_again" (a move of
    the node searched a second time), "elsewhere" (``went``, a position that
    no move of the nodes walked leads to, tested after ``node``; for
    "not_searched" too, where the student's search went instead); ``move`` is
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
    # (near Python's recursion limit the grader's own labelling fails: "?")
    tested = [label for kind, label in trace if kind == "t" and label != "?"]
    if len(tested) >= AGAIN and len(set(tested[-AGAIN:])) == 1:
        return "again", tested[-1]
    return None


WINDOWED = ("no_cutoff", "stopped_early")  # the kinds a window's values decide
# The kinds where the student's walk ends short of the reference's at a node:
# what a search that raised there shows too.
SHORT = ("not_searched", "stopped_early")


def resting(divergence: Divergence, levels: int = 1) -> list[Node]:
    """The nodes whose values a windowed divergence rests on, ``levels`` below
    its node under the moves searched there (1: those moves' own nodes; 2:
    theirs, where the level between is the grader's, which is right whenever
    the values it is given are): where the student's code gives each of them
    the reference's value, the reference's reason to stop, or to go on, was
    the student's code's too."""
    nodes = divergence.node.children[:divergence.done]
    for _ in range(levels - 1):
        nodes = [child for node in nodes for child in node.children]
    return nodes


def lowest_own(divergence: Divergence, again: Callable[[Node], Sequence[str]],
               theirs: Callable[[Node], bool], moves: Callable[[Node], dict[str, Move]]
               ) -> Divergence | None:
    """Where a windowed divergence comes from: the lowest call of the
    student's function that parts from the reference when it is called with
    the window (and depth) a correct search calls it with. ``again(node)``
    gives the student's tests when its function is called so on ``node``'s
    position; ``theirs(node)``: whether the
    node is one of the student's function's (in the lab, every other level
    is the grader's). The divergence of that call is returned: its own, where
    it parts at the call's own node (its logic is wrong, its window right);
    else one of kind "passed" at that node: the calls below it, called
    rightly, search rightly, so it passes them another window (through the
    grader's function, where one stands between). None where no call parts,
    or one tested nothing."""
    asked: dict[int, Divergence | None] = {}

    def parting(node: Node) -> Divergence | None:
        """Where the student's call on ``node`` parts (None: nowhere); raises
        ``Unasked`` where it tested nothing (it raised), which tells nothing."""
        if id(node) not in asked:
            tested = again(node)
            if not tested:
                raise Unasked
            asked[id(node)] = first_divergence(node, tested, moves)
        return asked[id(node)]

    try:
        return _lowest(divergence, parting, theirs)
    except Unasked:
        return None


class Unasked(Exception):
    """A call of the student's function that tested nothing: it tells nothing."""


def _lowest(divergence: Divergence, parting: Callable[[Node], Divergence | None],
            theirs: Callable[[Node], bool]) -> Divergence | None:
    node = _theirs(divergence.node, theirs)
    while node is not None:
        seen = parting(node)
        if seen is None:  # right when called rightly: its window came wrong from above
            above = _theirs(node.parent, theirs)
            if above is None and node.parent is not None:
                return Divergence("passed", _top(node))  # from the call no function makes
            node = above
            continue
        owner = _theirs(seen.node, theirs)
        if seen.node is node:
            return seen  # its own logic, with the right window
        if owner is node or owner is None or parting(owner) is None:
            return Divergence("passed", node)  # below it, the search is right when called rightly
        node = owner  # a call below parts when called rightly too: look there
    return None


def _top(node: Node) -> Node:
    while node.parent is not None:
        node = node.parent
    return node


class Student(Protocol):
    """What a family asks of the student's code about a node of the reference."""

    def value(self, node: Node) -> Any:
        """The value the student's code gives ``node``'s call (or its fault)."""

    def again(self, node: Node) -> Sequence[str]:
        """The student's tests when its function is called on ``node`` as the
        reference calls it there."""


def windowed(divergence: Divergence, student: Student, theirs: Callable[[Node], bool],
             moves: Callable[[Node], dict[str, Move]], levels: int = 1
             ) -> tuple[Divergence, Any] | None:
    """What a windowed divergence comes from, checked against the student's
    own calls: (a divergence of kind "value", the value it gave) at the
    deepest node whose value the student's code gives wrong, the values
    below it right (``localized``); else (the student's own divergence with
    the right window, or one of kind "passed": ``lowest_own``; None), the
    values it rests on right. None where it can't be told."""
    found = lowest_own(divergence, student.again, theirs, moves)
    if found is None:
        return None
    below = resting(found, levels) if found.kind != "passed" else \
        [child for child in found.node.children if theirs(child)] or \
        [grand for child in found.node.children for grand in child.children]
    for node in below:
        wrong = localized(node, student.value, levels)
        if wrong:
            return Divergence("value", wrong[0]), wrong[1]
    return found, None


def _theirs(node: Node | None, theirs: Callable[[Node], bool]) -> Node | None:
    """``node`` or the nearest node above it that is the student's function's."""
    while node is not None and not theirs(node):
        node = node.parent
    return node


def agrees(node: Node, got: Any) -> bool:
    """Whether ``got`` is a value a correct search may give ``node``'s call: the
    reference's, or, where the node has a window, one past the same bound (a
    fail-hard search returns the bound where the reference returns what it found)."""
    if type(got) not in (int, float):
        return False
    if node.window is None:
        return bool(got == node.value)
    alpha, beta = node.window
    if node.value <= alpha:
        return bool(got <= alpha)
    if node.value >= beta:
        return bool(got >= beta)
    return bool(got == node.value)


def localized(node: Node, ask: Callable[[Node], Any], levels: int = 1
              ) -> tuple[Node, Any] | None:
    """Where the student's code first gives a wrong value below ``node``: None
    where it gives ``node`` a right one, else the deepest node, going down
    through wrong ones, whose value is wrong while the values of the nodes
    ``levels`` below it (the student's, with the grader's between where
    ``levels`` is 2) are right, and the value it gave. ``ask(node)`` is the
    student's value of a node's call."""
    got = ask(node)
    if agrees(node, got):
        return None
    while True:
        below = [node]
        for _ in range(levels):
            below = [child for above in below for child in above.children]
        for child in below:
            found = ask(child)
            if not agrees(child, found):
                node, got = child, found
                break
        else:
            return node, got


def only_repeated(root: Node, tested: Sequence[str]) -> bool:
    """Whether the student's tests are the reference's but for positions tested
    again at once, one of them before the moves searched there: the walk is
    the same, with some tests made twice in a row by the node itself (a leaf
    tested twice may as well be a leaf searched twice)."""
    once = [label for i, label in enumerate(tested) if not i or tested[i - 1] != label]
    walk = list(preorder(root))
    inner = {node.label for node in walk if node.children}
    return once == [node.label for node in walk] and any(
        label == tested[i - 1] and label in inner for i, label in enumerate(tested) if i)


def told_apart(divergence: Divergence, root: Node, tested: Sequence[str],
               again: Callable[[Node], Sequence[str] | None]) -> tuple[Divergence, bool]:
    """A position tested twice in a row, told apart: (the divergence, whether
    its cause is known). Known where the rest of the walk is the reference's
    (``only_repeated``: the node tests twice), and, at a leaf, by the
    student's function called on it alone (``again``; None where it can't
    be): tested twice there, the leaf's own call tests twice; once, its
    parent searched it twice ("searched_again")."""
    node = divergence.node
    if only_repeated(root, tested):
        return divergence, True
    own = again(node) if not node.children and node.parent is not None else None
    if own is not None and list(own[:2]) == [node.label] * 2:
        return divergence, True
    if own is not None and list(own) == [node.label]:
        assert node.parent is not None  # (asked only so)
        return Divergence("searched_again", node.parent, node.path[-1]), True
    return divergence, False


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
    if at == len(walk) == len(tested) or not tested:
        return None  # the same walk, or nothing seen to say what the search did
    last = walk[at - 1] if at else None
    due = walk[at] if at < len(walk) else None
    went = tested[at] if at < len(tested) else None
    if due is not None and went in moves(due):
        return Divergence("untested", due, moves(due)[went])
    if last is not None and went == last.label:
        return Divergence("tested_twice", last)
    if last is not None and not last.children and went in moves(last):
        return Divergence("past_depth", last, moves(last)[went])
    if last is not None and last.children and due is last.children[0] and \
            went not in moves(last):
        return Divergence("not_searched", last, went=went)
    return _left(last or root, due, went, moves, root)


def _up(node: Node, root: Node) -> Node | None:
    """``node``'s parent, within the tree walked from ``root``."""
    return None if node is root else node.parent


def _left(last: Node, due: Node | None, went: str | None,
          moves: Callable[[Node], dict[str, Move]], root: Node) -> Divergence | None:
    """Where the student's search went after ``last``'s subtree, against where
    the reference went (``due``; None when it was done)."""
    # the node whose move the student's search took: ``last`` or one above it
    above: Node | None = last
    while above is not None and (went is None or went not in moves(above)):
        above = _up(above, root)
    if went is not None and above is None:
        return Divergence("elsewhere", last, went=went)
    taking = _up(due, root) if due is not None else None
    if taking is not None and (above is None or _below(taking, above)):
        # the student's search left ``taking`` before the move the reference takes next
        assert due is not None  # (``taking`` is its parent)
        before = taking.children.index(due)
        return Divergence("stopped_early", taking, due.path[-1], before) if before else None
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
