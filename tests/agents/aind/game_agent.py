"""An agent written against isolation.Board, as students of that course project
write theirs: a CustomPlayer base, a SearchTimeout raised when time_left() runs
low, minimax and alpha-beta players with iterative deepening."""

import random

from isolation import Board  # noqa: F401  (such files import it, for their tests)
from sample_players import improved_score


class SearchTimeout(Exception):
    """Raised when the time left runs out."""


def custom_score(game, player):
    """Chase the opponent: the player's moves less twice the opponent's."""
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    own = len(game.get_legal_moves(player))
    other = len(game.get_legal_moves(game.get_opponent(player)))
    return float(own - 2 * other) + 0.01 * improved_score(game, player)


class IsolationPlayer:
    def __init__(self, search_depth=3, score_fn=custom_score, timeout=15.):
        self.search_depth = search_depth
        self.score = score_fn
        self.time_left = None
        self.TIMER_THRESHOLD = timeout


class MinimaxPlayer(IsolationPlayer):
    def get_move(self, game, time_left):
        self.time_left = time_left
        best_move = (-1, -1)
        legal = game.get_legal_moves()
        if legal:
            best_move = random.choice(legal)
        try:
            return self.minimax(game, self.search_depth)
        except SearchTimeout:
            return best_move

    def minimax(self, game, depth):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        moves = game.get_legal_moves()
        if not moves:
            return (-1, -1)
        return max(moves, key=lambda m: self.min_value(game.forecast_move(m), depth - 1))

    def min_value(self, game, depth):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return self.score(game, self)
        return min(self.max_value(game.forecast_move(m), depth - 1) for m in moves)

    def max_value(self, game, depth):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return self.score(game, self)
        return max(self.min_value(game.forecast_move(m), depth - 1) for m in moves)


class AlphaBetaPlayer(IsolationPlayer):
    def get_move(self, game, time_left):
        self.time_left = time_left
        legal = game.get_legal_moves(game.active_player)
        if not legal:
            return (-1, -1)
        best_move, depth = legal[0], 1
        try:
            while depth <= len(game.get_blank_spaces()):
                best_move = self.alphabeta(game, depth)
                depth += 1
        except SearchTimeout:
            pass
        return best_move

    def alphabeta(self, game, depth, alpha=float("-inf"), beta=float("inf")):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        best_move = (-1, -1)
        for move in game.get_legal_moves():
            value = self.min_value(game.forecast_move(move), depth - 1, alpha, beta)
            if value > alpha or best_move == (-1, -1):
                alpha, best_move = max(alpha, value), move
        return best_move

    def max_value(self, game, depth, alpha, beta):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        assert game.active_player is self
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return self.score(game, self)
        for move in moves:
            alpha = max(alpha, self.min_value(game.forecast_move(move), depth - 1, alpha, beta))
            if alpha >= beta:
                break
        return alpha

    def min_value(self, game, depth, alpha, beta):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        assert game.inactive_player is self
        moves = game.get_legal_moves()
        if depth <= 0 or not moves:
            return self.score(game, self)
        for move in moves:
            beta = min(beta, self.max_value(game.forecast_move(move), depth - 1, alpha, beta))
            if alpha >= beta:
                break
        return beta
