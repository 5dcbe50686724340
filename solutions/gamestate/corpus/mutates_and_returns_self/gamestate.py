class GameState:
    """Mini isolation on a 3x2 board."""

    def __init__(self):
        self._board = [[0 for y in range(2)] for x in range(3)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        """Play the move and hand the turn to the other player."""
        x, y = move
        self._board[x][y] = 1
        self._player_locations[self._parity] = (x, y)
        self._parity = 1 - self._parity
        return self

    def get_legal_moves(self):
        where = self._player_locations[self._parity]
        if where is None:
            free = []
            for x in range(3):
                for y in range(2):
                    if self._board[x][y] == 0:
                        free.append((x, y))
            return free
        moves = []
        for step in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (1, -1), (-1, 1)]:
            x, y = where
            while True:
                x += step[0]
                y += step[1]
                if not (0 <= x < 3 and 0 <= y < 2):
                    break
                if self._board[x][y] != 0:
                    break
                moves.append((x, y))
        return moves
