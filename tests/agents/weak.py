"""Weak: always the first legal move."""


class Agent:
    def get_move(self, game, time_left):
        return game.get_legal_moves()[0]
