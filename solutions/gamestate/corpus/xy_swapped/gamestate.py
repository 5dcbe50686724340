import copy

N_ROWS = 2
N_COLS = 3


class GameState:
    def __init__(self):
        # grid[row][col], True = still free
        self.grid = [[True] * N_COLS for _ in range(N_ROWS)]
        self.grid[1][2] = False          # bottom right is blocked
        self.to_move = 0
        self.where = [None, None]

    def forecast_move(self, move):
        col, row = move
        nxt = copy.deepcopy(self)
        nxt.grid[row][col] = False
        nxt.where[self.to_move] = (col, row)
        nxt.to_move = 1 - self.to_move
        return nxt

    def get_legal_moves(self):
        here = self.where[self.to_move]
        result = []
        if here is None:
            for row in range(N_ROWS):
                for col in range(N_COLS):
                    if self.grid[row][col]:
                        result.append((row, col))
            return result
        col0, row0 = here
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr == 0 and dc == 0:
                    continue
                row, col = row0 + dr, col0 + dc
                while 0 <= row < N_ROWS and 0 <= col < N_COLS and self.grid[row][col]:
                    result.append((row, col))
                    row += dr
                    col += dc
        return result
