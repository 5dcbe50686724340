from copy import deepcopy


class GameState:
    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 0]]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        """Return the state after the active player moves to `move`."""
        new_state = deepcopy(self)
        x, y = move
        new_state._board[x][y] = 1
        new_state._player_locations[new_state._parity] = move
        return new_state

    def get_legal_moves(self):
        player = self._parity
        loc = self._player_locations[player]
        if loc is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        moves = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == dy == 0:
                    continue
                x, y = loc[0] + dx, loc[1] + dy
                while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                    moves.append((x, y))
                    x, y = x + dx, y + dy
        return moves
