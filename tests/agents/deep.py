"""Deep: raises in a helper, two calls below get_move, at its third move."""


def pick(moves, count):
    return choose(moves, count)


def choose(moves, count):
    if count == 3:
        raise ValueError("no good move here")
    return moves[0]


class Agent:
    def __init__(self):
        self.count = 0

    def get_move(self, game, time_left):
        self.count += 1
        return pick(game.get_legal_moves(), self.count)
