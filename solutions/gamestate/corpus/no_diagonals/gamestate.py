from copy import deepcopy

# the directions a player can slide in
DIRECTIONS = [(0, -1),   # up
              (0, 1),    # down
              (-1, 0),   # left
              (1, 0)]    # right


class GameState:
    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 0]]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        after = deepcopy(self)
        after._board[move[0]][move[1]] = 1
        after._player_locations[self._parity] = move
        after._parity = 1 - self._parity
        return after

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        if loc is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        legal = []
        for dx, dy in DIRECTIONS:
            x, y = loc
            while True:
                x += dx
                y += dy
                if x < 0 or x >= 3 or y < 0 or y >= 2:
                    break
                if self._board[x][y] == 1:
                    break
                legal.append((x, y))
        return legal
