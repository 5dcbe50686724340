import copy

STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


class GameState:
    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 1]]   # (2, 1) is blocked
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        nxt = copy.deepcopy(self)
        nxt._board[move[0]][move[1]] = 1
        nxt._player_locations[self._parity] = move
        nxt._parity = 1 - nxt._parity
        return nxt

    def get_legal_moves(self):
        # a set so that no move can show up twice
        moves = set()
        me = self._player_locations[self._parity]
        if me is None:
            for x in range(3):
                for y in range(2):
                    if self._board[x][y] == 0:
                        moves.add((x, y))
            return moves
        for dx, dy in STEPS:
            x, y = me[0] + dx, me[1] + dy
            while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                moves.add((x, y))
                x, y = x + dx, y + dy
        return moves
