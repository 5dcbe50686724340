from copy import deepcopy
# a bound off by one: x may reach 3 (the board is a dict, so nothing raises)
class GameState:
    def __init__(self):
        self._board = {(x, y): 0 for x in range(3) for y in range(2)}
        self._board[(2, 1)] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        new = deepcopy(self)
        new._board[move] = 1
        new._player_locations[self._parity] = move
        new._parity ^= 1
        return new

    def get_legal_moves(self):
        here = self._player_locations[self._parity]
        if here is None:
            return [c for c, v in self._board.items() if v == 0]
        moves = []
        for dx, dy in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]:
            x, y = here[0] + dx, here[1] + dy
            while 0 <= x <= 3 and 0 <= y < 2 and self._board.get((x, y), 0) == 0:
                moves.append((x, y))
                x, y = x + dx, y + dy
        return moves
