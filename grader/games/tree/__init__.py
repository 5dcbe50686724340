"""Small drawn game trees, under the ``grader.games.Game`` interface.

``rules`` is the game the student's search runs on (in the worker, as a
``{"trusted": {"tree": ...}}`` argument); the functions here let the
reference search and the mistake models play it, and ``draw`` shows it.
Trees are drawn by hypothesis in ``grader.harness.lesson.trees``: there is
no fixed set of positions and no flawed rules.
"""

from collections.abc import Hashable, Sequence
from typing import Any

from grader.games import Flawed, Path
from grader.games.lesson import legal_moves, play, terminal, to_move, utility
from grader.games.tree.rules import TreeState, from_data, label, numbered

Tree = list[Any]  # a node: the list of its children, each a Tree (plain, nested lists)

__all__ = ["Tree", "TreeState", "from_data", "label", "numbered", "start", "legal_moves",
           "play", "terminal", "utility", "to_move", "key", "draw", "positions", "flawed"]


def start() -> TreeState:
    return from_data([])


def key(state: TreeState) -> Hashable:
    return state.node()


def draw(state: TreeState) -> str:
    return f"node {state.node()}, player {state.player() + 1} to move"


def positions() -> Sequence[tuple[TreeState, Path]]:
    return ()


def flawed() -> Sequence[Flawed]:
    return ()
