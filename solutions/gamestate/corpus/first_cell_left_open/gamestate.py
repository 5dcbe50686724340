"""Reference solution: the mini-isolation GameState."""

from copy import deepcopy

WIDTH, HEIGHT = 3, 2
BLOCKED = (2, 1)
STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


class GameState:
    def __init__(self):
        self._board = [[0 for _ in range(HEIGHT)] for _ in range(WIDTH)]
        self._board[BLOCKED[0]][BLOCKED[1]] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        new_state = deepcopy(self)
        x, y = move
        if self._player_locations[self._parity] is not None:  # a slide, not a placing
            new_state._board[x][y] = 1
        new_state._player_locations[self._parity] = move
        new_state._parity = 1 - self._parity
        return new_state

    def get_legal_moves(self):
        location = self._player_locations[self._parity]
        if location is None:
            return self._open_cells()
        moves = []
        for dx, dy in STEPS:
            x, y = location[0] + dx, location[1] + dy
            while 0 <= x < WIDTH and 0 <= y < HEIGHT and self._board[x][y] == 0:
                moves.append((x, y))
                x, y = x + dx, y + dy
        return moves

    def _open_cells(self):
        return [(x, y) for x in range(WIDTH) for y in range(HEIGHT) if self._board[x][y] == 0]
