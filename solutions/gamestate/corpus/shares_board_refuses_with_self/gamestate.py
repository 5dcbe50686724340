XLIM, YLIM = 3, 2


class GameState:
    """Mini-isolation. A move the state does not offer is answered with the
    state itself; a legal one builds a new state on the same board."""

    def __init__(self, board=None, locations=(None, None), turn=0):
        if board is None:
            board = [[False] * YLIM for _ in range(XLIM)]
            board[XLIM - 1][YLIM - 1] = True
        self.board = board
        self.locations = list(locations)
        self.turn = turn

    def forecast_move(self, move):
        if move not in self.get_legal_moves():
            return self
        board = self.board
        board[move[0]][move[1]] = True
        locations = list(self.locations)
        locations[self.turn] = move
        return GameState(board, locations, 1 - self.turn)

    def get_legal_moves(self):
        here = self.locations[self.turn]
        if here is None:
            return [(x, y) for y in range(YLIM) for x in range(XLIM) if not self.board[x][y]]
        found = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == dy == 0:
                    continue
                x, y = here[0] + dx, here[1] + dy
                while 0 <= x < XLIM and 0 <= y < YLIM and not self.board[x][y]:
                    found.append((x, y))
                    x, y = x + dx, y + dy
        return found
