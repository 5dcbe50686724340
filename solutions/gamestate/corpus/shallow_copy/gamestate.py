import copy

WIDTH = 3
HEIGHT = 2


class GameState:
    def __init__(self):
        # _board[x][y]: 0 means open, 1 means closed
        self._board = [[0] * HEIGHT for _ in range(WIDTH)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        # make a copy so we don't touch the current state
        new_state = copy.copy(self)
        new_state._board[move[0]][move[1]] = 1
        new_state._player_locations[self._parity] = move
        new_state._parity = 1 - self._parity
        return new_state

    def get_legal_moves(self):
        current = self._player_locations[self._parity]
        if current is None:
            return [(x, y) for x in range(WIDTH) for y in range(HEIGHT)
                    if self._board[x][y] == 0]
        legal = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) == (0, 0):
                    continue
                x, y = current[0] + dx, current[1] + dy
                while 0 <= x < WIDTH and 0 <= y < HEIGHT and self._board[x][y] == 0:
                    legal.append((x, y))
                    x += dx
                    y += dy
        return legal
