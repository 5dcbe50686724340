from copy import deepcopy


class GameState:
    # 3 columns, 2 rows; board[x][y] is 1 once a cell is used
    _board = [[0, 0], [0, 0], [0, 0]]
    directions = [(1, 0), (-1, 0), (0, 1), (0, -1),
                  (1, 1), (1, -1), (-1, 1), (-1, -1)]

    def __init__(self):
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        state = deepcopy(self)
        x, y = move
        state._board[x][y] = 1
        state._player_locations[state._parity] = move
        state._parity ^= 1
        return state

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        if not loc:
            return [(x, y) for x in range(3) for y in range(2) if not self._board[x][y]]
        moves = []
        for dx, dy in self.directions:
            x, y = loc
            while True:
                x, y = x + dx, y + dy
                if x < 0 or x > 2 or y < 0 or y > 1 or self._board[x][y]:
                    break
                moves.append((x, y))
        return moves
