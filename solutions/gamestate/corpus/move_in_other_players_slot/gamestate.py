import copy


class GameState:
    """Mini-isolation: 3 columns, 2 rows, the lower-right cell blocked."""

    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 1]]
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        after = copy.deepcopy(self)
        after._board[move[0]][move[1]] = 1
        # the move is written to the opponent's entry
        after._player_locations[1 - self._parity] = move
        after._parity ^= 1
        return after

    def get_legal_moves(self):
        here = self._player_locations[self._parity]
        cells = [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        if here is None:
            return cells
        found = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                x, y = here[0] + dx, here[1] + dy
                while (x, y) in cells:
                    found.append((x, y))
                    x, y = x + dx, y + dy
        return found
