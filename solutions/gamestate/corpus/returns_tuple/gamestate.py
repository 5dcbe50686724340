from copy import deepcopy


class GameState:
    WIDTH, HEIGHT = 3, 2

    def __init__(self):
        self._board = [[0] * self.HEIGHT for _ in range(self.WIDTH)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        result = deepcopy(self)
        result._board[move[0]][move[1]] = 1
        result._player_locations[self._parity] = move
        result._parity = 1 - self._parity
        return result

    def _inside(self, x, y):
        return 0 <= x < self.WIDTH and 0 <= y < self.HEIGHT

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        found = []
        if loc is None:
            for x in range(self.WIDTH):
                for y in range(self.HEIGHT):
                    if self._board[x][y] == 0:
                        found.append((x, y))
        else:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if dx or dy:
                        x, y = loc[0] + dx, loc[1] + dy
                        while self._inside(x, y) and not self._board[x][y]:
                            found.append((x, y))
                            x, y = x + dx, y + dy
        # moves shouldn't be changed by the caller, so hand back a tuple
        return tuple(found)
