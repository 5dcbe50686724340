"""A legal cell as a list [x, y]: a move is a tuple, as the game's own are."""


class Agent:
    def get_move(self, game, time_left):
        return list(game.get_legal_moves()[0])
