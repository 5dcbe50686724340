"""Tic-tac-toe, the lab's game, under the ``grader.games.Game`` interface.

``rules`` holds the trusted rules (sent to the student's process for the
grader's stand-ins, in the tests that use them); ``flawed_rules`` the models of known ``is_end``
mistakes. A state is a board string; a move is (row, col). Player 0 is X,
who moves first; the lab scores for O (max): +1 an O win, -1 an X win.
"""

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from grader.games import Path
from grader.games.tictactoe.rules import CELLS, EMPTY, START, VALUES, end, moves, place, rows

if TYPE_CHECKING:
    from grader.games.tictactoe.flawed_rules import EndModel

__all__ = ["CELLS", "EMPTY", "START", "VALUES", "end", "moves", "place", "rows", "start",
           "legal_moves", "play", "terminal", "utility", "to_move", "key", "label", "draw",
           "positions", "flawed", "mark", "value", "descends"]

MARKS = ("X", "O")


def start() -> str:
    return START


def legal_moves(state: str) -> list[tuple[int, int]]:
    return [] if end(state) is not None else moves(state)


def mark(state: str) -> str:
    """The mark of the player to move."""
    return MARKS[to_move(state)]


def to_move(state: str) -> int:
    return 0 if state.count("X") == state.count("O") else 1


def play(state: str, move: tuple[int, int]) -> str:
    return place(state, *move, mark(state))


def terminal(state: str) -> bool:
    return end(state) is not None


def value(state: str) -> int:
    """A finished game's value as the lab scores it, for O: +1, 0 or -1."""
    return VALUES[end(state) or EMPTY]


def utility(state: str, player: int) -> int:
    return value(state) if player == 1 else -value(state)


def key(state: str) -> str:
    return state


def label(state: str) -> str:
    return state


def draw(state: str) -> str:
    lines = ["       col 0  1  2"]
    for row in range(3):
        lines.append(f"row {row}    " + "  ".join(state[3 * row:3 * row + 3]))
    over = end(state)
    lines.append("game over" if over is not None else f"{mark(state)} to move")
    return "\n".join(lines)


@cache
def _positions() -> tuple[tuple[str, Path], ...]:
    """Every legal position once, with the first move sequence that reaches
    it, fewest marks first (then the order the lab tries moves in)."""
    seen: dict[str, Path] = {START: ()}
    frontier = [START]
    while frontier:
        following = []
        for state in frontier:
            for move in legal_moves(state):
                child = play(state, move)
                if child not in seen:
                    seen[child] = (*seen[state], move)
                    following.append(child)
        frontier = following
    return tuple(seen.items())


def positions() -> Sequence[tuple[str, Path]]:
    return _positions()


def flawed() -> Sequence["EndModel"]:
    # imported here: the grader's stand-ins load this package in the student's
    # process, where every worker's start counts
    from grader.games.tictactoe.flawed_rules import END_MODELS

    return END_MODELS


def descends(root: str, label: str) -> bool:
    """Whether board ``label`` follows from board ``root`` by one move or more:
    every mark of the root still there, and more marks. (It checks every board
    a search entered: the root's marked cells are worked out once a root.)"""
    if len(label) != 9 or len(root) != 9:
        return False
    marked, marks, empty = _marked(root)
    return label.count(EMPTY) < empty and all(map(str.__eq__, map(label.__getitem__, marked),
                                                  marks))


@cache
def _marked(root: str) -> tuple[tuple[int, ...], tuple[str, ...], int]:
    """The root's marked cells, their marks, and how many cells are empty."""
    marked = tuple(i for i, mark in enumerate(root) if mark != EMPTY)
    return marked, tuple(root[i] for i in marked), root.count(EMPTY)
