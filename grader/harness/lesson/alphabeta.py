"""Trusted alpha-beta on the lesson's game, with optional known flaws.

``AlphaBeta()`` is the reference of the alphabeta exercise: the textbook's
form, ``min_value(state, alpha, beta, depth)`` pruning when ``v <= alpha``
and ``max_value`` when ``v >= beta``, children in ``get_legal_moves()``'
order, the root keeping the first move of the best value and raising alpha
between its children. It shares the leaves (terminal test first, then the
cutoff) and the depth flaws with ``Search``; ``AlphaFlaws`` adds the
mistakes of the window. Fail-hard and fail-soft forms make the same calls
and the same decisions, so the reference is either.
"""

import math
from dataclasses import dataclass

from grader.contracts.protocol import Tested
from grader.games import Game, State, isolation
from grader.harness.lesson.search import Flaws, Search, number

INF = math.inf
Window = tuple[float, float]


@dataclass(frozen=True)
class AlphaFlaws(Flaws):
    # How a node tests for a prune: "right" (max: v >= beta, min: v <= alpha),
    # "strict" (> and <), "other_bound" (max: v >= alpha, min: v <= beta) or
    # "reversed" (max: v <= beta, min: v >= alpha) or "never" (no return in the
    # loop, or a window reset to (-inf, inf) in each node: nothing is pruned).
    prune_test: str = "right"
    # How a node narrows its window after a child: "right" (max raises alpha,
    # min lowers beta), "none" (it never does) or "crossed" (max lowers beta,
    # min raises alpha: the other function's line).
    update: str = "right"
    window_not_passed: bool = False  # children searched with (-inf, inf)
    root_alpha_fixed: bool = False  # the root passes alpha = -inf to every child
    root_keeps_last: bool = False  # the root takes a later move of equal value (>=)


NO_FLAWS = AlphaFlaws()


def _prunes(value: float, alpha: float, beta: float, minimising: bool, test: str) -> bool:
    if test == "never":
        return False
    if test == "strict":
        return value < alpha if minimising else value > beta
    if test == "other_bound":
        return value <= beta if minimising else value >= alpha
    if test == "reversed":
        return value >= alpha if minimising else value <= beta
    return value <= alpha if minimising else value >= beta


def _narrowed(value: float, alpha: float, beta: float, minimising: bool, update: str
              ) -> Window:
    if update == "none":
        return alpha, beta
    if (update == "crossed") != minimising:
        return alpha, min(beta, value)
    return max(alpha, value), beta


class AlphaBeta(Search):
    """Alpha-beta with the student's signatures; ``calls`` as ``Search``'s."""

    def __init__(self, flaws: AlphaFlaws | None = NO_FLAWS, game: Game = isolation) -> None:
        super().__init__(flaws or NO_FLAWS, game)
        self.flaws: AlphaFlaws

    def min_value(self, state: State, alpha: float = -INF, beta: float = INF,  # type: ignore[override]
                  depth: int | None = None) -> float | None:
        return self._window_node(state, alpha, beta, depth, minimising=True)

    def max_value(self, state: State, alpha: float = -INF, beta: float = INF,  # type: ignore[override]
                  depth: int | None = None) -> float | None:
        return self._window_node(state, alpha, beta, depth, minimising=False)

    def _window_node(self, state: State, alpha: float, beta: float, depth: int | None,
                     minimising: bool) -> float | None:
        flaws = self._flaws(minimising)
        assert isinstance(flaws, AlphaFlaws)  # what ``_flaws`` hands out is ours
        value: float | None = self._leaf(state, depth, minimising, flaws)
        if value is not None or flaws.unfinished and flaws.loop_missing:
            return value
        step = self.max_value if minimising else self.min_value
        value = INF if minimising else -INF
        for move in self.game.legal_moves(state):
            window = (-INF, INF) if flaws.window_not_passed else (alpha, beta)
            child = number(step(self.game.play(state, move), *window,
                                self._child_depth(depth, flaws)))
            value = min(value, child) if minimising else max(value, child)
            if _prunes(value, alpha, beta, minimising, flaws.prune_test):
                return None if flaws.unfinished else value
            alpha, beta = _narrowed(value, alpha, beta, minimising, flaws.update)
        return None if flaws.unfinished else value

    def choose(self, state: State, depth: int | None = None) -> object:
        """The move ``alpha_beta_search(state, depth)`` returns."""
        child_depth = depth if self.flaws.root_off_by_one or depth is None else depth - 1
        alpha, best, chosen = -INF, -INF, None
        self.so_far = None  # the best move of the children searched so far
        for move in self.game.legal_moves(state):
            value = number(self.min_value(self.game.play(state, move), alpha, INF, child_depth))
            if value > best or self.flaws.root_keeps_last and value == best:
                best, chosen = value, move
                self.so_far = chosen
            if not self.flaws.root_alpha_fixed:
                alpha = max(alpha, value)
        return chosen

    def decision(self, state: State, depth: int | None = None  # type: ignore[override]
                 ) -> tuple[Tested, set[object]]:
        """The terminal tests of one search and the one move it returns."""
        self.reset()
        return self.calls, {self.choose(state, depth)}


def best_moves(state: State, depth: int | None = None, game: Game = isolation
               ) -> set[tuple[int, int]]:
    """Every move plain minimax rates best (``Search().best_moves``), found by
    alpha-beta: each child searched with alpha just below the best value so
    far, so that its value is exact where it is as good, and only known to be
    lower where it is not (tests/test_game_exercises.py)."""
    search = AlphaBeta(None, game)
    below = None if depth is None else depth - 1
    best, moves = -INF, set[tuple[int, int]]()
    for move in search.game.legal_moves(state):
        value = search.min_value(search.game.play(state, move), math.nextafter(best, -INF), INF,
                                 below)
        if value == best:
            moves.add(move)
        elif value is not None and value > best:
            best, moves = value, {move}
    return moves
