"""My GameState for mini-isolation.

I keep the board as a dict {(x, y): True/False} where True means the cell
can still be used.
"""
from copy import deepcopy

print("loading gamestate.py ...")

COLS = 3
ROWS = 2
BLOCKED_CELL = (2, 1)

# queen directions: left/right, up/down and the four diagonals
QUEEN_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1),
              (1, 1), (1, -1), (-1, 1), (-1, -1)]


def on_board(x, y):
    return 0 <= x < COLS and 0 <= y < ROWS


class GameState:
    def __init__(self):
        self.free = {}
        for x in range(COLS):
            for y in range(ROWS):
                self.free[(x, y)] = True
        self.free[BLOCKED_CELL] = False
        self.turn = 0                 # index of the player to move
        self.pos = [None, None]       # where each player stands

    def forecast_move(self, move):
        child = deepcopy(self)
        child.free[move] = False
        child.pos[self.turn] = move
        child.turn = 1 - self.turn
        return child

    def get_legal_moves(self):
        me = self.pos[self.turn]
        if me is None:
            return [cell for cell in sorted(self.free) if self.free[cell]]
        result = []
        for dx, dy in QUEEN_DIRS:
            result.extend(self.ray(me, dx, dy))
        return result

    # ---- extra stuff I used while testing ----

    def ray(self, start, dx, dy):
        """All free cells walking from start in direction (dx, dy)."""
        cells = []
        x, y = start[0] + dx, start[1] + dy
        while on_board(x, y) and self.free[(x, y)]:
            cells.append((x, y))
            x, y = x + dx, y + dy
        return cells

    def show(self):
        for y in range(ROWS):
            row = ""
            for x in range(COLS):
                if (x, y) == self.pos[0]:
                    row += " 1"
                elif (x, y) == self.pos[1]:
                    row += " 2"
                elif self.free[(x, y)]:
                    row += " ."
                else:
                    row += " #"
            print(row)
        print("player", self.turn + 1, "to move")

    def is_over(self):
        return len(self.get_legal_moves()) == 0


def count_states(state, seen=None):
    """How many positions can be reached (I got 155)."""
    if seen is None:
        seen = set()
    key = (tuple(sorted(state.free.items())), state.turn, tuple(state.pos))
    if key in seen:
        return 0
    seen.add(key)
    total = 1
    for m in state.get_legal_moves():
        total += count_states(state.forecast_move(m), seen)
    return total


print("start moves:", GameState().get_legal_moves())
