import copy

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class GameState:
    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 0]]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        s = copy.deepcopy(self)
        x, y = move
        s._board[x][y] = 1
        s._player_locations[self._parity] = move
        s._parity = 1 - self._parity
        return s

    def get_legal_moves(self):
        # lazy: yield the moves one at a time
        pos = self._player_locations[self._parity]
        if pos is None:
            for x in range(3):
                for y in range(2):
                    if self._board[x][y] == 0:
                        yield (x, y)
            return
        for dx, dy in DIRS:
            x, y = pos[0] + dx, pos[1] + dy
            while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                yield (x, y)
                x += dx
                y += dy
