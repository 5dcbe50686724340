"""Spender: computes until time_left() says its time is up, and says (as its
search depth) how many milliseconds of CPU it used."""

import time


class Agent:
    def get_move(self, game, time_left):
        start = time.process_time()
        while time_left() > 0:
            sum(range(100))
        self.search_depth = round(1000 * (time.process_time() - start))
        return game.get_legal_moves()[0]
