from copy import deepcopy

# the starting board, built once and copied for every new game
START_BOARD = empty_board()


def empty_board():
    board = [[0, 0] for _ in range(3)]
    board[2][1] = 1
    return board


class GameState:
    def __init__(self):
        self._board = deepcopy(START_BOARD)
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        nxt = deepcopy(self)
        nxt._board[move[0]][move[1]] = 1
        nxt._player_locations[self._parity] = move
        nxt._parity = 1 - self._parity
        return nxt

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        if loc is None:
            return [(x, y) for x in range(3) for y in range(2) if self._board[x][y] == 0]
        moves = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    x, y = loc[0] + dx, loc[1] + dy
                    while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                        moves.append((x, y))
                        x, y = x + dx, y + dy
        return moves
