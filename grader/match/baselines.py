"""The baseline agents a student's agent is graded against.

Trusted code, written against the same public API a student's agent gets
(``get_legal_moves(player)``, ``forecast_move``, ``player()``, ``opponent()``),
and loaded the same way, by path, so it imports nothing of the grader.
"""

import random
from collections.abc import Callable
from typing import Any

INFINITY = float("inf")
TimeLeft = Callable[[], float]
Move = Any  # the game's own: an (x, y) tuple


class Timeout(Exception):
    """Out of time: the search unwinds to the best move it has."""


def improved_score(game: Any, player: int) -> float:
    """The "improved" score: the player's moves less the opponent's."""
    own, other = game.get_legal_moves(player), game.get_legal_moves(player ^ 1)
    if not own and game.player() == player:
        return -INFINITY
    if not other and game.player() != player:
        return INFINITY
    return float(len(own) - len(other))


class RandomAgent:
    """A legal move at random (``random`` is seeded by the referee for each game)."""

    def get_move(self, game: Any, time_left: TimeLeft) -> Move:
        return random.choice(game.get_legal_moves())


class MinimaxAgent:
    """Minimax to a fixed depth with the improved score; the first best move.

    The reply must come within the limit: past ``cutoff_ms`` left, it plays the
    best move found so far."""

    depth = 3
    cutoff_ms = 10.0

    def __init__(self) -> None:
        self.search_depth = self.depth
        self.time_left: TimeLeft = lambda: INFINITY

    def get_move(self, game: Any, time_left: TimeLeft) -> Move:
        self.time_left, me = time_left, game.player()
        moves = game.get_legal_moves()
        best = moves[0]
        try:
            top = -INFINITY
            for move in moves:
                value = self.value(game.forecast_move(move), self.depth - 1, me)
                if value > top:
                    top, best = value, move
        except Timeout:
            pass
        return best

    def value(self, game: Any, depth: int, me: int) -> float:
        if self.time_left() < self.cutoff_ms:
            raise Timeout
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return improved_score(game, me)
        values = (self.value(game.forecast_move(m), depth - 1, me) for m in moves)
        return max(values) if game.player() == me else min(values)


class AlphaBetaAgent:
    """Alpha-beta with iterative deepening and the improved score: the best move
    of the deepest search that finished in time."""

    cutoff_ms = 10.0

    def __init__(self) -> None:
        self.search_depth = 0
        self.time_left: TimeLeft = lambda: INFINITY

    def get_move(self, game: Any, time_left: TimeLeft) -> Move:
        self.time_left, me = time_left, game.player()
        moves = game.get_legal_moves()
        best, depth = moves[0], 1
        try:
            while depth <= len(game.open_cells()):
                best = self.root(game, depth, me)
                self.search_depth, depth = depth, depth + 1
        except Timeout:
            pass
        return best

    def root(self, game: Any, depth: int, me: int) -> Move:
        alpha, best = -INFINITY, None
        for move in game.get_legal_moves():
            value = self.value(game.forecast_move(move), depth - 1, alpha, INFINITY, me)
            if best is None or value > alpha:
                alpha, best = max(alpha, value), move
        return best

    def value(self, game: Any, depth: int, alpha: float, beta: float,
              me: int) -> float:
        if self.time_left() < self.cutoff_ms:
            raise Timeout
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return improved_score(game, me)
        maximising = game.player() == me
        for move in moves:
            value = self.value(game.forecast_move(move), depth - 1, alpha, beta, me)
            if maximising:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        return alpha if maximising else beta


BASELINES = {"random": RandomAgent, "minimax": MinimaxAgent, "alphabeta": AlphaBetaAgent}
