import copy


class GameState:
    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 1]]
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        s = copy.deepcopy(self)
        s._board[move[0]][move[1]] = 1
        s._player_locations[self._parity] = move
        s._parity = 1 - s._parity
        return s

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        if loc is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        directions = [(1, 0), (-1, 0), (0, 1), (0, -1),
                      (1, 1), (-1, -1), (1, -1), (-1, 1),
                      (1, 0)]
        moves = []
        for dx, dy in directions:
            x, y = loc[0] + dx, loc[1] + dy
            while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                moves.append((x, y))
                x += dx
                y += dy
        return moves
