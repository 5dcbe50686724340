# Lab 3 - mini isolation
# board is indexed board[x][y], 0 = free, 1 = used

import copy


class GameState:

    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 0]]
        self._board[2][1] = 1          # bottom right is blocked
        self._parity = 0               # 0 -> player 1 moves
        self._player_locations = [None, None]

    def forecast_move(self, move):
        new_state = copy.deepcopy(self)
        x, y = move
        new_state._board[x][y] = 1
        new_state._player_locations[self._parity] = move
        new_state._parity = 1 - self._parity
        return new_state

    def get_legal_moves(self):
        loc = self._player_locations[self._parity]
        moves = []
        if loc is None:
            # first move: anywhere that is still free
            for x in range(3):
                for y in range(2):
                    if self._board[x][y] == 0:
                        moves.append((x, y))
            return moves

        for dx in [-1, 0, 1]:
            for dy in [-1, 0, 1]:
                if dx == 0 and dy == 0:
                    continue
                x = loc[0] + dx
                y = loc[1] + dy
                while 0 <= x < 3 and 0 <= y < 2:
                    if self._board[x][y] == 1:
                        break
                    moves.append((x, y))
                    x += dx
                    y += dy
        return moves
