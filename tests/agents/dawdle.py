"""Dawdle: sleeps nine tenths of its wall limit each move, at no CPU (it takes the
limit to be ten times its CPU time, as match.toml has it), then moves."""

import time

MARGIN = 0.15  # of the CPU time, kept back by time_left()
WALL_FACTOR = 10


class Agent:
    def get_move(self, game, time_left):
        cpu = time_left() / 1000 / (1 - MARGIN)
        time.sleep(0.9 * WALL_FACTOR * cpu)
        return game.get_legal_moves()[0]
