"""The reference minimax of a run's checks, each position worked out once.

``Search()`` is the reference; a run asks it about the same positions at
every depth, and about the positions below them again and again.
``values(game)`` answers as it does, exactly (tests/test_game_exercises.py), from
what it has worked out already: each position's values and terminal tests
by depth, and the best moves by an alpha-beta search that only tells the
best children from the others.

A position whose search reaches the end of the game everywhere below it
(its height, the plies left at most, is no more than the depth) is the same
at every depth past its height: it is kept once, as depth None (to the end).
"""

import math
from collections.abc import Callable, Hashable
from typing import TypeVar

from grader.contracts.protocol import Tested
from grader.games import Game, State, isolation
from grader.harness.isolation.alphabeta import AlphaBeta
from grader.harness.isolation.search import Search

Kept = TypeVar("Kept")
# A position's result at a depth, and its height: None where the depth cut the search.
Worked = tuple[Kept, int | None]
Table = dict[tuple[Hashable, int | None], Kept]


def _above(height: int | None, below: int | None) -> int | None:
    """A node's height so far, with one more child's (None: cut somewhere)."""
    return None if height is None or below is None else max(height, below + 1)


class Reference(Search):
    """``Search()``'s answers, worked out once a position and depth."""

    def __init__(self, game: Game = isolation) -> None:
        super().__init__(game=game)
        self._values: Table[tuple[float, float]] = {}  # (value at a min node, at a max node)
        self._tests: Table[Tested] = {}  # the terminal tests of min_value (or max_value)
        self._heights: dict[Hashable, int] = {}  # where some search reached every end
        self._pruning = AlphaBeta(None, game)

    def _kept(self, table: Table[Kept], state: State, depth: int | None,
              work: Callable[[State, int | None], Worked[Kept]]) -> Worked[Kept]:
        """``work(state, depth)``, done once and kept in ``table``."""
        key = self.game.key(state)
        height = self._heights.get(key)
        if depth is not None and height is not None and depth >= height:
            depth = None
        if (key, depth) not in table:
            result, height = work(state, depth)
            if height is not None:  # every end reached: the same at every depth past it
                self._heights[key] = height
                depth = None
            table[key, depth] = result
        return table[key, depth], self._heights.get(key) if depth is None else None

    def _leaf_height(self, state: State, depth: int | None) -> int | None:
        """A leaf's height, 0 at the end of the game, None at the cutoff; -1
        where the search goes on (as ``Search``'s: the terminal test first)."""
        if self.game.terminal(state):
            return 0
        return None if self._cut(depth) else -1

    def _children(self, state: State, depth: int | None) -> list[tuple[State, int | None]]:
        below = self._child_depth(depth, self.flaws)
        return [(self.game.play(state, move), below) for move in self.game.legal_moves(state)]

    def _worked_values(self, state: State, depth: int | None) -> Worked[tuple[float, float]]:
        leaf = self._leaf_height(state, depth)
        if leaf is None:
            return (0, 0), None  # the cutoff's value
        if leaf == 0:
            mover = self.game.to_move(state)
            return (self.game.utility(state, 1 - mover), self.game.utility(state, mover)), 0
        low: float = math.inf
        high: float = -math.inf
        height: int | None = 1
        for child, below in self._children(state, depth):
            (child_low, child_high), child_height = self._kept(self._values, child, below,
                                                               self._worked_values)
            low, high = min(low, child_high), max(high, child_low)
            height = _above(height, child_height)
        return (low, high), height

    def _worked_tests(self, state: State, depth: int | None) -> Worked[Tested]:
        tests = Tested({self.game.label(state): 1})
        leaf = self._leaf_height(state, depth)
        if leaf != -1:
            return tests, leaf
        height: int | None = 1
        for child, below in self._children(state, depth):
            child_tests, child_height = self._kept(self._tests, child, below, self._worked_tests)
            tests.update(child_tests)
            height = _above(height, child_height)
        return tests, height

    def _node(self, state: State, depth: int | None, minimising: bool) -> float:
        low, high = self._kept(self._values, state, depth, self._worked_values)[0]
        return low if minimising else high

    def tests(self, state: State, depth: int | None) -> Tested:
        """The terminal tests of ``min_value(state, depth)`` (kept: not to be changed)."""
        return self._kept(self._tests, state, depth, self._worked_tests)[0]

    def best_moves(self, state: State, depth: int | None = None) -> set[tuple[int, int]]:
        """The moves of the best value: each child searched by alpha-beta with
        alpha just below the best value so far, so that its value is exact
        where it is as good, and only known to be lower where it is not."""
        best, moves = -math.inf, set()
        self._pruning.reset()  # its terminal tests are not wanted
        for move in self.game.legal_moves(state):
            value = self._pruning.min_value(self.game.play(state, move),
                                            math.nextafter(best, -math.inf), math.inf,
                                            self._root_depth(depth))
            if value == best:
                moves.add(move)
            elif value is not None and value > best:
                best, moves = value, {move}
        return moves

    def decision(self, state: State, depth: int | None = None
                 ) -> tuple[Tested, set[tuple[int, int]]]:
        calls = Tested()
        for move in self.game.legal_moves(state):
            calls.update(self.tests(self.game.play(state, move), self._root_depth(depth)))
        return calls, self.best_moves(state, depth)


_REFERENCES: dict[Game, Reference] = {}  # a game is its module: one Reference a game


def values(game: Game) -> Reference:
    """``game``'s reference, shared by a run's checks (not for a drawn tree,
    whose keys are the same in every tree)."""
    if game not in _REFERENCES:
        _REFERENCES[game] = Reference(game)
    return _REFERENCES[game]
