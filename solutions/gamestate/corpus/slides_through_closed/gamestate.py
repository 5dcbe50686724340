import copy


class GameState:
    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 1]]
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        state = copy.deepcopy(self)
        state._board[move[0]][move[1]] = 1
        state._player_locations[self._parity] = move
        state._parity = 1 - self._parity
        return state

    def get_legal_moves(self):
        me = self._player_locations[self._parity]
        if me is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        moves = []
        for dx, dy in [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]:
            x, y = me[0] + dx, me[1] + dy
            # walk until we fall off the board
            while 0 <= x < 3 and 0 <= y < 2:
                if self._board[x][y] == 0:
                    moves.append((x, y))
                x += dx
                y += dy
        return moves
