"""Slow: thinks far past any limit, whatever time_left says."""


class Agent:
    def get_move(self, game, time_left):
        while True:
            pass
