import copy

# all the ways a queen can go
DIRECTIONS = [
    (0, -1),    # north
    (1, -1),    # north-east
    (1, 0),     # east
    (1, 1),     # south-east
    (0, 1),     # south
    (-1, 1),    # south-west
    (-1, 0),    # west
]


class GameState:
    def __init__(self):
        self._board = [[0] * 2 for _ in range(3)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        new_state = copy.deepcopy(self)
        new_state._board[move[0]][move[1]] = 1
        new_state._player_locations[self._parity] = move
        new_state._parity = 1 - self._parity
        return new_state

    def get_legal_moves(self):
        pos = self._player_locations[self._parity]
        if pos is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        moves = []
        for dx, dy in DIRECTIONS:
            x, y = pos[0] + dx, pos[1] + dy
            while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                moves.append((x, y))
                x, y = x + dx, y + dy
        return moves
