"""Flood: prints without end."""


class Agent:
    def get_move(self, game, time_left):
        while True:
            print("spam " * 200)
