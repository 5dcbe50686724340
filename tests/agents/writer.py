"""Writer: keeps a log in its working folder, which is its own and empty at
each game's start; says through its moves whether it found it so."""


class Agent:
    def __init__(self):
        import os
        self.fresh = not os.listdir(".")

    def get_move(self, game, time_left):
        with open("debug.log", "a") as log:
            log.write(f"{game.move_count}\n")
        if not self.fresh:
            raise RuntimeError("the working folder was not empty at the game's start")
        return game.get_legal_moves()[0]
