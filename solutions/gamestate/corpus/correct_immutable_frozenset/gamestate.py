# mini-isolation GameState, immutable version:
# closed cells live in a frozenset, positions in a tuple, so a child can
# never change its parent.

DIRECTIONS = ((-1, -1), (0, -1), (1, -1),
              (-1, 0),           (1, 0),
              (-1, 1),  (0, 1),  (1, 1))

ALL_CELLS = tuple((x, y) for y in range(2) for x in range(3))


class GameState(object):

    def __init__(self):
        self.closed = frozenset([(2, 1)])
        self.players = (None, None)
        self.mover = 0

    def _make(self, closed, players, mover):
        s = GameState()
        s.closed = closed
        s.players = players
        s.mover = mover
        return s

    def forecast_move(self, move):
        move = tuple(move)
        players = list(self.players)
        players[self.mover] = move
        return self._make(self.closed | {move}, tuple(players), 1 - self.mover)

    def _free(self, cell):
        x, y = cell
        return 0 <= x <= 2 and 0 <= y <= 1 and cell not in self.closed

    def get_legal_moves(self):
        here = self.players[self.mover]
        if here is None:
            return [c for c in ALL_CELLS if c not in self.closed]
        out = []
        for dx, dy in DIRECTIONS:
            cell = (here[0] + dx, here[1] + dy)
            while self._free(cell):
                out.append(cell)
                cell = (cell[0] + dx, cell[1] + dy)
        return out
