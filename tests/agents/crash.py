"""Crash: its process ends at its second move."""

import os


class Agent:
    def __init__(self):
        self.moves = 0

    def get_move(self, game, time_left):
        self.moves += 1
        if self.moves == 2:
            os._exit(3)
        return game.get_legal_moves()[0]
