import copy

WIDTH, HEIGHT = 3, 2
STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


class GameState:
    def __init__(self):
        self.closed = {(2, 1)}
        self.where = [None, None]
        self.turn = 0
        self.put_players_for_testing()

    def put_players_for_testing(self):
        # left in from trying the slides by hand: both players start on the board
        self.where = [(0, 0), (2, 0)]
        self.closed |= {(0, 0), (2, 0)}

    def forecast_move(self, move):
        if move in self.closed:
            return None
        child = copy.deepcopy(self)
        child.closed.add(move)
        child.where[self.turn] = move
        child.turn = 1 - self.turn
        return child

    def get_legal_moves(self):
        here = self.where[self.turn]
        if here is None:
            return [(x, y) for y in range(HEIGHT) for x in range(WIDTH)
                    if (x, y) not in self.closed]
        moves = []
        for dx, dy in STEPS:
            x, y = here[0] + dx, here[1] + dy
            while 0 <= x < WIDTH and 0 <= y < HEIGHT and (x, y) not in self.closed:
                moves.append((x, y))
                x, y = x + dx, y + dy
        print("moves from", here, moves)
