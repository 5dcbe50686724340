"""Oldstyle: the older signature, get_move(game, legal_moves, time_left), and the
most moves of its own after the move (isolation.Board's names)."""


class Agent:
    def get_move(self, game, legal_moves, time_left):
        if not legal_moves:
            return (-1, -1)
        me = game.active_player
        return max(legal_moves, key=lambda m: len(game.forecast_move(m).get_legal_moves(me)))
