"""An agent with an opening book (book.json, read from the current folder and
from beside its module) and a helper package (helpers/, with a CSV of weights)."""

import json

from helpers import pick

with open("book.json") as handle:  # the working folder links the data handed in
    BOOK = json.load(handle)


class Agent:
    def get_move(self, game, time_left):
        moves = game.get_legal_moves()
        if not moves:
            return (-1, -1)
        opening = tuple(BOOK["first"])
        if opening in moves and game.move_count < 2:
            return opening
        return pick.best(game, moves)
