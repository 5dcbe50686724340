"""Trusted minimax, full and depth-limited, with optional known flaws.

``Search()`` is the reference the suites grade against. ``Search(Flaws(...))``
reproduces one known student mistake; the diagnosis names the mistake whose
model gives the same answers as the student. Every flaw is one small branch
so that the reference path stays easy to read.
"""

from dataclasses import dataclass
import math


@dataclass(frozen=True)
class Flaws:
    flipped_utilities: bool = False  # +1 at max terminals, -1 at min terminals
    mover_utility: bool = False  # terminal scored for the player to move: always -1
    recursion_swapped: bool = False  # min_value recurses into min_value, max into max
    aggregation_swapped: bool = False  # min_value takes the max and vice versa
    start_kept: bool = False  # ... but still starts from +inf (min) or -inf (max)
    min_from_zero: bool = False  # min_value's running value starts at 0
    max_from_zero: bool = False  # max_value's running value starts at 0
    cutoff_first: bool = False  # depth cutoff tested before the terminal test
    no_decrement: bool = False  # children searched with the same depth
    root_off_by_one: bool = False  # the root's children searched with ``depth``
    cutoff_as_terminal: bool = False  # cutoff scored +1 / -1 instead of 0
    double_terminal_test: bool = False  # terminal_test called twice per node
    argmin_decision: bool = False  # the decision picks the lowest-scored move
    decision_uses_max: bool = False  # the root's children scored with max_value


REFERENCE = Flaws()


class Search:
    """Minimax on any object with ``get_legal_moves`` and ``forecast_move``.

    ``depth=None`` searches to the end of the game. ``calls`` counts the
    ``terminal_test`` calls made since the last :meth:`reset`.
    """

    def __init__(self, flaws=REFERENCE):
        self.flaws = flaws or REFERENCE
        self.calls = 0

    def reset(self):
        self.calls = 0

    def terminal_test(self, state):
        self.calls += 2 if self.flaws.double_terminal_test else 1
        return not state.get_legal_moves()

    def _cut(self, depth):
        return depth is not None and depth <= 0

    def _child_depth(self, depth):
        if depth is None or self.flaws.no_decrement:
            return depth
        return depth - 1

    def _leaf(self, state, depth, win):
        """The value of a leaf, or None when ``state`` must be expanded."""
        if self.flaws.cutoff_first and self._cut(depth):
            return 0
        if self.terminal_test(state):
            if self.flaws.mover_utility:
                return -1
            return -win if self.flaws.flipped_utilities else win
        if self._cut(depth):
            return win if self.flaws.cutoff_as_terminal else 0
        return None

    def min_value(self, state, depth=None):
        return self._node(state, depth, minimising=True)

    def max_value(self, state, depth=None):
        return self._node(state, depth, minimising=False)

    def _node(self, state, depth, minimising):
        flaws = self.flaws
        value = self._leaf(state, depth, +1 if minimising else -1)
        if value is not None:
            return value
        own, other = (self.min_value, self.max_value) if minimising else (self.max_value,
                                                                           self.min_value)
        step = own if flaws.recursion_swapped else other
        takes_min = minimising != flaws.aggregation_swapped
        pick = min if takes_min else max
        value = math.inf if takes_min != flaws.start_kept else -math.inf
        if flaws.min_from_zero and minimising or flaws.max_from_zero and not minimising:
            value = 0
        for move in state.get_legal_moves():
            value = pick(value, step(state.forecast_move(move), self._child_depth(depth)))
        return value

    def scores(self, state, depth=None):
        """The score of each of the root's moves, as the decision sees them."""
        child_depth = depth if self.flaws.root_off_by_one or depth is None else depth - 1
        score = self.max_value if self.flaws.decision_uses_max else self.min_value
        return {m: score(state.forecast_move(m), child_depth) for m in state.get_legal_moves()}

    def best_moves(self, state, depth=None):
        """Every move a correct decision may return (ties are all allowed)."""
        scores = self.scores(state, depth)
        best = (min if self.flaws.argmin_decision else max)(scores.values())
        return {m for m, s in scores.items() if s == best}

    def decision(self, state, depth=None):
        """The count of terminal tests and the moves allowed, for one decision."""
        self.reset()
        moves = self.best_moves(state, depth)
        return self.calls, moves
