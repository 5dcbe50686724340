import copy


class GameState:
    """Mini-isolation: the players' cells are the only closed ones."""

    def __init__(self):
        self._board = [[0, 0], [0, 0], [0, 1]]
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        child = copy.deepcopy(self)
        previous = child._player_locations[child._parity]
        if previous is not None:
            child._board[previous[0]][previous[1]] = 0  # the player has left it
        child._board[move[0]][move[1]] = 1
        child._player_locations[child._parity] = move
        child._parity = 1 - child._parity
        return child

    def get_legal_moves(self):
        here = self._player_locations[self._parity]
        if here is None:
            return [(x, y) for x in range(3) for y in range(2) if not self._board[x][y]]
        found = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    x, y = here[0] + dx, here[1] + dy
                    while 0 <= x < 3 and 0 <= y < 2 and not self._board[x][y]:
                        found.append((x, y))
                        x, y = x + dx, y + dy
        return found
