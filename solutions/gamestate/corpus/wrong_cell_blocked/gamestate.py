from copy import deepcopy

# I count rows from the bottom like in maths class: y = 0 is the bottom row,
# so the bottom right corner is (2, 0).
BLOCKED = (2, 0)
SIZE_X, SIZE_Y = 3, 2


class GameState:
    def __init__(self):
        self._board = [[0] * SIZE_Y for _ in range(SIZE_X)]
        self._board[BLOCKED[0]][BLOCKED[1]] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        new = deepcopy(self)
        x, y = move
        new._board[x][y] = 1
        new._player_locations[self._parity] = (x, y)
        new._parity = 1 - self._parity
        return new

    def get_legal_moves(self):
        start = self._player_locations[self._parity]
        if start is None:
            return [(x, y) for x in range(SIZE_X) for y in range(SIZE_Y)
                    if self._board[x][y] == 0]
        moves = []
        for dx, dy in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            x, y = start
            while True:
                x, y = x + dx, y + dy
                if not (0 <= x < SIZE_X and 0 <= y < SIZE_Y) or self._board[x][y]:
                    break
                moves.append((x, y))
        return moves
