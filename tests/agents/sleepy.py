"""Sleepy: waits on the wall clock, using no CPU time (the backstop's case)."""

import time


class Agent:
    def get_move(self, game, time_left):
        time.sleep(3600)
