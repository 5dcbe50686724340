# 3 rows of 2: the picture read as 3 tall, 2 wide; cells kept as a set
class GameState:
    def __init__(self):
        self.open = {(x, y) for x in range(2) for y in range(3)} - {(1, 2)}
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        new = GameState()
        new.open = set(self.open) - {move}
        new._player_locations = list(self._player_locations)
        new._player_locations[self._parity] = move
        new._parity = 1 - self._parity
        return new

    def get_legal_moves(self):
        here = self._player_locations[self._parity]
        if here is None:
            return sorted(self.open)
        moves = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    x, y = here[0] + dx, here[1] + dy
                    while (x, y) in self.open and (x, y) not in self._player_locations:
                        moves.append((x, y))
                        x, y = x + dx, y + dy
        return moves
