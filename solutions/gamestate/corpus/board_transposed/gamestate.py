from copy import deepcopy

COLUMNS = 2  # the picture has 3 rows of 2, I thought
ROWS = 3


class GameState:
    def __init__(self):
        self._board = [[0] * ROWS for _ in range(COLUMNS)]
        self._board[COLUMNS - 1][ROWS - 1] = 1  # lower right
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        state = deepcopy(self)
        x, y = move
        state._board[x][y] = 1
        state._player_locations[self._parity] = (x, y)
        state._parity ^= 1
        return state

    def get_legal_moves(self):
        where = self._player_locations[self._parity]
        cells = [(x, y) for x in range(COLUMNS) for y in range(ROWS) if self._board[x][y] == 0]
        if where is None:
            return cells
        moves = []
        for dx, dy in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            x, y = where[0] + dx, where[1] + dy
            while (x, y) in cells:
                moves.append((x, y))
                x, y = x + dx, y + dy
        return moves
