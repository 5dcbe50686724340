"""The smallest game tree on which a student's search goes wrong.

Beside the exhaustive checks on the real game, a failing search test looks
for a small drawn tree (``grader.games.tree``) on which the student's
function, called through the same GameState API, answers differently from
the reference: other terminal tests, or a move that is not among the best.
Hypothesis draws the trees and shrinks the first one found to the smallest
it can; the report shows it, node by node, with the terminal tests of both
searches. Its seed comes from the submission's files, so a report is
reproducible, and the number of calls it may make is bounded, so it fits in
the test's time. A tree is only ever shown as found: when the student's code
fails on trees (it reads the board itself, say), nothing is shown.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.contracts.protocol import Tested, describe
from grader.games import tree as game
from grader.games.tree import Tree
from grader.harness.checking.checks import is_move
from grader.harness.checking.probes import SearchProbe
from grader.harness.runtime.faults import Raised, StudentFault

if TYPE_CHECKING:  # hypothesis is imported where a tree is looked for: only once a test failed
    from hypothesis import strategies as st

CALLS = 300  # the student's calls one search may make: well under a second in all
MOST_CALLS = 1000  # terminal tests in one call on a tree (a few dozen nodes) before it is stopped
EXAMPLES = 120  # trees drawn before shrinking
MAX_BRANCHING = 3
MAX_DEPTH = 4  # of the search; the trees are at most a few levels deeper

# A tree and the search's other arguments (its depth, say).
Case = tuple[Tree, tuple[Any, ...]]
Answer = tuple[Any, Tested]  # what a search returned, and its terminal tests


def trees() -> st.SearchStrategy[Tree]:
    """Trees of up to a dozen leaves, each node with 1 to 3 children; the
    root has children (a search with no move to choose tells nothing)."""
    from hypothesis import strategies as st
    node: st.SearchStrategy[Tree] = st.recursive(st.just([]), lambda children: st.lists(
        children, min_size=1, max_size=MAX_BRANCHING), max_leaves=12)
    return st.lists(node, min_size=1, max_size=MAX_BRANCHING)


@dataclass
class Found:
    """A tree on which the student's search and the reference differ."""

    tree: Tree
    extra: tuple[Any, ...]
    student: Answer


def seed(probe: SearchProbe) -> int:
    """A number from the submission's own files: the same file, the same trees."""
    student = probe.student.student
    digest = hashlib.sha256()
    for name in sorted(student.modules):
        try:
            digest.update(Path(student.submission, f"{name}.py").read_bytes())
        except OSError:
            pass
    return int.from_bytes(digest.digest()[:8], "big")


def smallest(probe: SearchProbe, name: str, cases: st.SearchStrategy[Case],
             differs: Callable[[Tree, tuple[Any, ...], Answer], bool],
             examples: int = EXAMPLES) -> Found | None:
    """The smallest case on which the student's ``name(root, *extra)`` answers
    as ``differs(tree, extra, answer)`` says the reference would not, or None
    when none was found within the bounds (``examples`` drawn, ``CALLS`` made)."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis.errors import Flaky, NoSuchExample

    left = [CALLS]

    def ask(case: Case) -> Answer | None:
        tree, extra = case
        try:
            return probe.on_tree(name, {"tree": tree}, *extra, most=MOST_CALLS)
        except Raised:  # fails on this tree: nothing to show
            return None
        except StudentFault:  # stopped (an endless search): each costs a new worker
            left[0] = 0
            return None

    shown: list[Found] = []  # each case found wrong, smaller and smaller as it shrinks

    def wrong(case: Case) -> bool:
        left[0] -= 1
        answer = ask(case) if left[0] >= 0 else None
        if answer is None or not differs(*case, answer):
            return False
        shown.append(Found(*case, answer))
        return True

    try:
        find(cases, wrong, settings=settings(
            max_examples=examples, database=None, deadline=None,
            suppress_health_check=list(HealthCheck)), random=random.Random(seed(probe)))
    except NoSuchExample:
        return None
    except Flaky:  # out of calls while shrinking (or the search answered otherwise)
        pass
    return shown[-1] if shown else None


def _node_line(node: int, level: int, children: list[list[int]], depth: int | None) -> str:
    mover = "max" if level % 2 == 0 else "min"
    if not children[node]:
        value = "+1" if mover == "min" else "-1"
        return f"n{node} {mover} to move, stuck: the game is over ({value})"
    if depth is not None and level >= depth:
        return f"n{node} {mover} to move: the cutoff (0)"
    return f"n{node} {mover} to move"


def draw(tree: Tree, depth: int | None, ours: Tested, theirs: Tested) -> list[str]:
    """The tree, a node a line, each with the terminal tests the reference
    (``ours``) and the student's search (``theirs``) made on it."""
    children = game.numbered(tree)
    rows: list[tuple[str, str]] = []

    def visit(node: int, level: int, prefix: str, last: bool) -> None:
        branch = "" if level == 0 else prefix + ("`-- " if last else "|-- ")
        label = game.label(game.TreeState(children, node))
        tests = f"reference {ours[label]}, yours {theirs[label]}"
        rows.append((branch + _node_line(node, level, children, depth), tests))
        inner = "" if level == 0 else prefix + ("    " if last else "|   ")
        for i, child in enumerate(children[node]):
            visit(child, level + 1, inner, i == len(children[node]) - 1)

    visit(0, 0, "", True)
    width = max(len(text) for text, _ in rows)
    return [f"{text.ljust(width)}   terminal_test: {tests}" for text, tests in rows]


def _values(children: list[list[int]], depth: int | None) -> dict[int, int]:
    """Each node's minimax value from the root's (max's) view, for the nodes
    within ``depth`` (a leaf: +1 where min is stuck, -1 where max is; the
    cutoff: 0)."""
    values: dict[int, int] = {}

    def value(node: int, level: int) -> int:
        below = [value(child, level + 1) for child in children[node]
                 if depth is None or level < depth]
        if not children[node]:
            values[node] = 1 if level % 2 else -1
        elif not below:
            values[node] = 0
        else:
            values[node] = max(below) if level % 2 == 0 else min(below)
        return values[node]

    value(0, 0)
    return values


def picture(tree: Tree, depth: int | None, ours: Tested, theirs: Tested, best: set[Any],
            move: object, drawn: list[str]) -> dict[str, Any]:
    """The tree as the report's plain data (its "tree"), which pages draw: each
    node in preorder with its parent, who moves there, its value, the terminal
    tests of both searches, and whether the reference pruned it (a node below
    the root, within the depth, it never tested: the root is the decision's own,
    never tested); the best moves and the student's, as the nodes
    they lead to; ``drawn``, the text lines the message shows it in."""
    children = game.numbered(tree)
    values = _values(children, depth)
    parents = {child: node for node, below in enumerate(children) for child in below}
    nodes = []
    for node in range(len(children)):
        label = game.label(game.TreeState(children, node))
        nodes.append({"label": label, "parent": parents.get(node),
                      "mover": "max" if _level(node, parents) % 2 == 0 else "min",
                      "value": values.get(node), "reference": ours[label],
                      "student": theirs[label],
                      "pruned": node in parents and node in values and ours[label] == 0})
    chosen = move[1] if is_move(move) and move in game.legal_moves(game.from_data(tree)) \
        else None
    return {"depth": depth, "nodes": nodes, "best": sorted(m[1] for m in best),
            "chosen": chosen, "drawn": "\n".join(drawn)}


def _level(node: int, parents: dict[int, int]) -> int:
    return 0 if node not in parents else 1 + _level(parents[node], parents)


class Shown(list[str]):
    """A report's lines showing a tree, with the tree as plain data
    (``picture``, see ``picture``): a page draws it, the lines stay its text."""

    def __init__(self, lines: list[str], tree: dict[str, Any]) -> None:
        super().__init__(lines)
        self.picture = tree


_SHOWN: set[Hashable] = set()  # what was searched for this session


def once(key: Hashable, lines: Callable[[], list[str]]) -> list[str]:
    """``lines()`` the first time ``key`` is asked this session, else nothing:
    a tree is searched for, and shown, once for each function and question."""
    if key in _SHOWN:
        return []
    _SHOWN.add(key)
    return lines()


def shown(found: Found, call: str, depth: int | None, calls: Tested, best: set[Any]
          ) -> Shown:
    """The report's lines for ``found``: the student's ``call`` on the tree
    against the reference's terminal tests (``calls``) and best moves; the
    tree as data beside them."""
    move, tested = found.student
    drawn = draw(found.tree, depth, calls, tested)
    return Shown(["", f"The smallest game tree found on which your {call} differs (n0 is the "
                      "root, where max moves):", "", *drawn, "",
                  f"expected: {_moves_text(best)} ({_tests_text(calls.total())})",
                  f"got:      {_move_text(move)} ({_tests_text(tested.total())})"],
                 picture(found.tree, depth, calls, tested, best, move, drawn))


def _move_text(move: object) -> str:
    return f"the move to n{move[1]}" if is_move(move) else describe(move)


def _moves_text(moves: set[Any]) -> str:
    texts = [_move_text(m) for m in sorted(moves)]
    return texts[0] if len(texts) == 1 else "one of " + ", ".join(texts)


def _tests_text(count: int) -> str:
    return f"{count} terminal test" + ("" if count == 1 else "s")
