import copy

NEIGHBOURS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


class GameState:
    def __init__(self):
        self._board = [[0, 0] for _ in range(3)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        child = copy.deepcopy(self)
        child._board[move[0]][move[1]] = 1
        child._player_locations[self._parity] = move
        child._parity = 1 - self._parity
        return child

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        if loc is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        moves = []
        for dx, dy in NEIGHBOURS:
            x, y = loc[0] + dx, loc[1] + dy
            if 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                moves.append((x, y))
        return moves
