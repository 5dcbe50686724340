"""Small game trees behind the lesson's GameState API (trusted, pure).

A tree is plain data: a node is the list of its children, a leaf the empty
list. Nodes are numbered in preorder (the root is 0). As in mini-isolation,
a node without children is terminal and the player to move there has lost,
so a drawn tree is a game the student's search plays unchanged: it calls
``get_legal_moves()`` and ``forecast_move(move)`` and the grader's
``terminal_test``. A move is the pair (parent, child) of node numbers.

This file imports nothing: the worker's kit loads it beside the lesson's game.
"""

from __future__ import annotations  # annotations stay text: no typing import at run time


class TreeState:
    """A node of a numbered tree, and whose turn it is there (0 or 1)."""

    def __init__(self, children: list[list[int]], node: int = 0, parity: int = 0) -> None:
        self._children = children
        self._node = node
        self._parity = parity

    def get_legal_moves(self) -> list[tuple[int, int]]:
        return [(self._node, child) for child in self._children[self._node]]

    def forecast_move(self, move: tuple[int, int]) -> TreeState:
        parent, child = move
        if parent != self._node or child not in self._children[parent]:
            raise ValueError(f"{move!r} is not a move of node {self._node}")
        return TreeState(self._children, child, 1 - self._parity)

    def player(self) -> int:
        return self._parity

    def node(self) -> int:
        return self._node


def numbered(tree: list[object]) -> list[list[int]]:
    """Node number -> the numbers of its children, numbered in preorder."""
    children: list[list[int]] = []

    def visit(node: list[object]) -> int:
        number = len(children)
        children.append([])
        children[number] = [visit(child) for child in node]  # type: ignore[arg-type]  # nested lists
        return number

    visit(tree)
    return children


def from_data(tree: list[object]) -> TreeState:
    """The root of ``tree`` (plain nested lists), the first player to move."""
    return TreeState(numbered(tree))


def label(state: TreeState) -> str:
    """How the grader's terminal_test names a node: ``n`` and its number."""
    return f"n{state._node}"
