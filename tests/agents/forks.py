"""Forks: starts processes that outlive its move, as many as it can."""

import os
import time


class Agent:
    def get_move(self, game, time_left):
        for _ in range(200):
            if os.fork() == 0:
                time.sleep(3600)
        return ("forked", 200)
