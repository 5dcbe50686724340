"""A course project of the older kind, in the shapes real ones take: it logs to a
file from its import on, imports NumPy and the board by the package's path, and
its score reads the board's private state of both versions (checked against the
public methods: a disagreement raises, and loses the game)."""

import logging

import numpy as np
from isolation import Board as Same
from isolation.isolation import Board

logging.basicConfig(filename="debug.log", level=logging.INFO)
logging.info("imported")
assert Same is Board


class Timeout(Exception):
    pass


def private_score(game, player):
    state, height = game._board_state, game.height
    me = state[-1] if game._player_1 is player else state[-2]
    assert me == (None if game.get_player_location(player) is None else
                  game.get_player_location(player)[0] + game.get_player_location(player)[1]
                  * height)
    assert state[-3] == (0 if game._active_player is game._player_1 else 1)
    rows = np.array(game.__board_state__)
    assert int((rows == Board.BLANK).sum()) == len(game.get_blank_spaces())
    where = game.__last_player_move__[player]
    if where is not None:
        assert rows[where] == game.__player_symbols__[player]
    assert game.__inactive_player__ is game.get_opponent(game.__active_player__)
    return float(len(game.get_legal_moves(player))
                 - len(game.get_legal_moves(game.get_opponent(player))))


class CustomPlayer:
    def __init__(self, search_depth=3, score_fn=private_score, method="minimax"):
        self.search_depth, self.score, self.method = search_depth, score_fn, method
        with open("made.txt", "a") as log:
            log.write("made\n")

    def get_move(self, game, legal_moves, time_left):
        self.time_left = time_left
        with open("moves.txt", "a") as log:
            log.write(f"{legal_moves}\n")
        logging.info("move %s", len(legal_moves))
        if not legal_moves:
            return (-1, -1)
        best = legal_moves[0]
        try:
            for depth in range(1, 30):
                best = self.alphabeta(game, depth)[1]
        except Timeout:
            pass
        return best

    def alphabeta(self, game, depth, alpha=float("-inf"), beta=float("inf"), mine=True):
        if self.time_left() < 50:
            raise Timeout()
        moves = game.get_legal_moves()
        if depth == 0 or not moves:
            return self.score(game, self), (-1, -1)
        best = (float("-inf") if mine else float("inf")), moves[0]
        for move in moves:
            value = self.alphabeta(game.forecast_move(move), depth - 1, alpha, beta, not mine)[0]
            if mine and value > best[0]:
                best, alpha = (value, move), max(alpha, value)
            elif not mine and value < best[0]:
                best, beta = (value, move), min(beta, value)
            if alpha >= beta:
                break
        return best
