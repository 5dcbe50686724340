"""Trusted minimax, full and depth-limited, with optional known flaws.

``Search()`` is the reference the suites grade against. ``Search(Flaws(...))``
reproduces one known student mistake; the diagnosis names the mistake whose
model gives the same answers as the student. Every flaw is one small branch
so that the reference path stays easy to read.

``Flaws(only="min_value")`` keeps the flaws to one function, the other
being the reference: what the student's code does when the grader stands in
for the other function (see the worker's stand-ins).
"""

import math
from dataclasses import dataclass
from typing import Any

from grader.contracts.protocol import Tested
from grader.games import Game, State, isolation
from grader.harness.lesson.known import known

NUMBERS = (int, float)


class Stuck(Exception):
    """The model met a value that is not a number (a None from an unfinished
    function) where the student's code, or the grader's stand-in, raises
    TypeError."""


@dataclass(frozen=True)
class Flaws:
    only: str | None = None  # "min_value" or "max_value": the other one is right
    flipped_utilities: bool = False  # +1 at max terminals, -1 at min terminals
    mover_utility: bool = False  # terminal scored for the player to move: always -1
    # terminal scored for this player (0: the first), by whose turn it is, at
    # either level: ``-1 if gameState._parity == 0 else 1``
    fixed_player: int | None = None
    recursion_swapped: bool = False  # min_value recurses into min_value, max into max
    aggregation_swapped: bool = False  # min_value takes the max and vice versa
    start_kept: bool = False  # ... but still starts from +inf (min) or -inf (max)
    min_from_zero: bool = False  # min_value's running value starts at 0
    max_from_zero: bool = False  # max_value's running value starts at 0
    unfinished: bool = False  # returns None on states that are not terminal ...
    loop_missing: bool = False  # ... at once (else after looping over the children)
    inline_terminal: bool = False  # terminal check written out: terminal_test not called
    cutoff_first: bool = False  # depth cutoff tested before the terminal test
    cutoff_min: int = 0  # what min_value returns at the cutoff
    cutoff_max: int = 0  # what max_value returns at the cutoff
    no_decrement: bool = False  # children searched with the same depth
    root_off_by_one: bool = False  # the root's children searched with ``depth``
    double_terminal_test: bool = False  # terminal_test called twice per node
    # terminal_test called again in the cutoff test (``depth <= 0 or
    # terminal_test(state)``): twice on the nodes that go on to their children
    recheck_terminal: bool = False
    argmin_decision: bool = False  # the decision picks the lowest-scored move
    decision_uses_max: bool = False  # the root's children scored with max_value


NO_FLAWS = Flaws()
# max_value as a copy of min_value with only its name changed: +1 at terminals,
# the minimum, and its call to max_value for the children left as it was, so it
# calls itself (and, from +1 at every terminal, answers +1 everywhere).
PASTED_MAX = Flaws(only="max_value", flipped_utilities=True, aggregation_swapped=True,
                   recursion_swapped=True)


def number(value: object) -> int | float:
    if type(value) not in NUMBERS:
        raise Stuck(value)
    assert isinstance(value, NUMBERS)  # as its type is
    return value


class Search:
    """Minimax on the trusted game's states.

    ``depth=None`` searches to the end of the game. ``calls`` holds the
    positions of the ``terminal_test`` calls made since the last :meth:`reset`
    (as the student's are reported: ``protocol.Tested``), ``entered``
    the calls of the function that ``only`` leaves right (the grader's
    stand-in, in the student's place). It plays ``game`` with its positions
    kept (``known``): every search of a run visits the same ones.
    """

    def __init__(self, flaws: Flaws | None = NO_FLAWS, game: Game = isolation) -> None:
        self.flaws = flaws or NO_FLAWS
        self._right = type(self.flaws)()  # the other function's flaws: none
        self.game = known(game)
        self.reset()

    def reset(self) -> None:
        self.calls = Tested()
        self.entered = 0

    def terminal_test(self, state: State, flaws: Flaws = NO_FLAWS) -> bool:
        if not flaws.inline_terminal:
            self.calls[self.game.label(state)] += 2 if flaws.double_terminal_test else 1
        return self.game.terminal(state)

    def _flaws(self, minimising: bool) -> Flaws:
        """The flaws of min_value or max_value (``only`` keeps them to one)."""
        only = self.flaws.only
        if only is None or only == ("min_value" if minimising else "max_value"):
            return self.flaws
        self.entered += 1
        return self._right

    def _cut(self, depth: int | None) -> bool:
        return depth is not None and depth <= 0

    def _child_depth(self, depth: int | None, flaws: Flaws) -> int | None:
        if depth is None or flaws.no_decrement:
            return depth
        return depth - 1

    def _leaf(self, state: State, depth: int | None, minimising: bool, flaws: Flaws
              ) -> int | None:
        """The value of a leaf, or None when ``state`` must be expanded."""
        cutoff = flaws.cutoff_min if minimising else flaws.cutoff_max
        if flaws.cutoff_first and self._cut(depth):
            return cutoff
        if self.terminal_test(state, flaws):
            mover = self.game.to_move(state)
            if flaws.fixed_player is not None:
                return self.game.utility(state, flaws.fixed_player)
            if flaws.mover_utility:
                return self.game.utility(state, mover)
            # The searching player moves at max nodes; at min nodes, the other.
            win = self.game.utility(state, 1 - mover if minimising else mover)
            return -win if flaws.flipped_utilities else win
        if self._cut(depth):
            return cutoff
        if flaws.recheck_terminal:
            self.terminal_test(state, flaws)
        return None

    def min_value(self, state: State, depth: int | None = None) -> int | float | None:
        return self._node(state, depth, minimising=True)

    def max_value(self, state: State, depth: int | None = None) -> int | float | None:
        return self._node(state, depth, minimising=False)

    def _node(self, state: State, depth: int | None, minimising: bool
              ) -> int | float | None:
        flaws = self._flaws(minimising)
        value: int | float | None = self._leaf(state, depth, minimising, flaws)
        if value is not None or flaws.unfinished and flaws.loop_missing:
            return value
        own, other = (self.min_value, self.max_value) if minimising else (self.max_value,
                                                                           self.min_value)
        step = own if flaws.recursion_swapped else other
        takes_min = minimising != flaws.aggregation_swapped
        pick = min if takes_min else max
        value = math.inf if takes_min != flaws.start_kept else -math.inf
        if flaws.min_from_zero and minimising or flaws.max_from_zero and not minimising:
            value = 0
        for move in self.game.legal_moves(state):
            child = step(self.game.play(state, move), self._child_depth(depth, flaws))
            value = pick(value, number(child))
        return None if flaws.unfinished else value

    def scores(self, state: State, depth: int | None = None
               ) -> dict[tuple[int, int], int | float]:
        """The score of each of the root's moves, as the decision sees them."""
        child_depth = self._root_depth(depth)
        score = self.max_value if self.flaws.decision_uses_max else self.min_value
        return {m: number(score(self.game.play(state, m), child_depth))
                for m in self.game.legal_moves(state)}

    def _root_depth(self, depth: int | None) -> int | None:
        """The depth the decision searches the root's children with."""
        return depth if self.flaws.root_off_by_one or depth is None else depth - 1

    def best_moves(self, state: State, depth: int | None = None) -> set[tuple[int, int]]:
        """Every move a correct decision may return (ties are all allowed)."""
        scores = self.scores(state, depth)
        best = (min if self.flaws.argmin_decision else max)(scores.values())
        return {m for m, s in scores.items() if s == best}

    def decision(self, state: State, depth: int | None = None
                 ) -> tuple[Tested, set[tuple[int, int]]]:
        """The count of terminal tests and the moves allowed, for one decision."""
        self.reset()
        moves = self.best_moves(state, depth)
        return self.calls, moves

    def outcome(self, name: str, state: State, *depth: int | None) -> Any:
        """``name(state, *depth)`` of this model, or ``Stuck`` when it raises."""
        self.reset()
        try:
            return getattr(self, name)(state, *depth)
        except Stuck:
            return Stuck


class Values(Search):
    """The reference's values, each worked out once by position, depth and
    side: those a check expects of the student's min_value and max_value,
    where another search's terminal tests are the ones counted (its own
    ``calls`` miss the positions met again)."""

    def __init__(self, game: Game = isolation) -> None:
        super().__init__(game=game)
        self._known: dict[tuple[Any, int | None, bool], int | float | None] = {}

    def _node(self, state: State, depth: int | None, minimising: bool
              ) -> int | float | None:
        key = (self.game.key(state), depth, minimising)
        if key not in self._known:
            self._known[key] = super()._node(state, depth, minimising)
        return self._known[key]


_VALUES: dict[Game, Values] = {}  # a game is its module: one Values a game


def values(game: Game) -> Values:
    """``game``'s memoised reference values, shared by a run's checks (not for
    a drawn tree, whose keys are the same in every tree)."""
    if game not in _VALUES:
        _VALUES[game] = Values(game)
    return _VALUES[game]
