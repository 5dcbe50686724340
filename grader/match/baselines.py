"""The baseline agents a student's agent is graded against.

Trusted code, written against the same public API a student's agent gets
(``get_legal_moves(player)``, ``forecast_move``, ``player()``, ``opponent()``),
and loaded the same way, by path, so it imports nothing of the grader.

The strongest, ``AlphaBetaAgent``, plays as the knight's-isolation course's
own yardstick does (alpha-beta, deepened one ply at a time while the CPU time
of the move lasts, the "improved" score at the leaves), and better where that
one is weak: a game it has found won or lost is scored by how soon it ends, so
it wins by the shortest way and, where every move loses against best play,
holds out longest. The yardstick scored every lost line alike, so in a
position lost against best play it played its first legal move, however soon
that lost: a random mover won 3 of 30 games against it at 0.1 s a move, and
none of 30 against this one.
"""

import random
from collections.abc import Callable
from typing import Any

INFINITY = float("inf")
WIN = 1000.0  # a finished game's score: beyond the improved score's (at most 8 apart)
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


def ended(game: Any, me: int, depth: int) -> float:
    """A finished game's score for ``me`` (the player to move has lost), ``depth``
    plies before the search's horizon: a win sooner, and a loss later, is worth more."""
    return -(WIN + depth) if game.player() == me else WIN + depth


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
        if not moves:
            return ended(game, me, depth)
        if depth <= 0:
            return improved_score(game, me)
        values = (self.value(game.forecast_move(m), depth - 1, me) for m in moves)
        return max(values) if game.player() == me else min(values)


class AlphaBetaAgent:
    """Alpha-beta with iterative deepening and the improved score: the best move
    of the deepest search that finished in time, the previous one's best tried
    first; deepened no further once the game's end is found either way."""

    cutoff_ms = 10.0

    def __init__(self) -> None:
        self.search_depth = 0
        self.time_left: TimeLeft = lambda: INFINITY

    def get_move(self, game: Any, time_left: TimeLeft) -> Move:
        self.time_left, me = time_left, game.player()
        best, depth = game.get_legal_moves()[0], 1
        try:
            while depth <= len(game.open_cells()):
                best, value = self.root(game, depth, me, best)
                self.search_depth, depth = depth, depth + 1
                if abs(value) >= WIN:  # won or lost against best play: deeper says the same
                    break
        except Timeout:
            pass
        return best

    def root(self, game: Any, depth: int, me: int, first: Move) -> tuple[Move, float]:
        """The best move at ``depth`` (``first`` searched first) and its value."""
        moves = sorted(game.get_legal_moves(), key=lambda move: move != first)
        alpha, best = -INFINITY, moves[0]
        for move in moves:
            value = self.value(game.forecast_move(move), depth - 1, alpha, INFINITY, me)
            if value > alpha:
                alpha, best = value, move
        return best, alpha

    def value(self, game: Any, depth: int, alpha: float, beta: float,
              me: int) -> float:
        if self.time_left() < self.cutoff_ms:
            raise Timeout
        moves = game.get_legal_moves()
        if not moves:
            return ended(game, me, depth)
        if depth <= 0:
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
