import copy


class GameState:
    """Mini-isolation on a 3 x 2 board; (2, 1) is blocked."""

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
        # the opponent's square, where the player to move's is due
        location = self._player_locations[1 - self._parity]
        if location is None:
            return [(x, y) for x in range(3) for y in range(2) if not self._board[x][y]]
        moves = []
        for dx, dy in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            x, y = location[0] + dx, location[1] + dy
            while 0 <= x < 3 and 0 <= y < 2 and self._board[x][y] == 0:
                moves.append((x, y))
                x += dx
                y += dy
        return moves
