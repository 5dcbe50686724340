"""Models of the known mistakes in a student's ``GameState``.

A ``FlawedGame`` plays like the trusted game but for one flaw. The suites
replay the same move sequences on it as on the student's class and name the
flaw whose answers match the student's.
"""

from grader.harness.isolation import DIRECTIONS, GameState

ORTHOGONAL = DIRECTIONS[:4]


class FlawedGame(GameState):
    def __init__(self, blocked=((2, 1),), directions=DIRECTIONS, slide=True,
                 through_closed=False, hand_over=True, swap_xy=False):
        super().__init__(3, 2, blocked)
        self._directions = directions
        self._slide_far = slide
        self._through_closed = through_closed
        self._hand_over = hand_over
        self._swap_xy = swap_xy

    def forecast_move(self, move):
        # Replayed sequences come from the trusted game; a model plays them
        # whatever it thinks of their legality.
        child = self._play(move)
        if not self._hand_over:
            child._parity = self._parity
        return child

    def get_legal_moves(self):
        here = self._player_locations[self._parity]
        if here is None:
            moves = super().get_legal_moves()
        else:
            moves = [m for step in self._directions for m in self._reach(here, step)]
        return [m[::-1] for m in moves] if self._swap_xy else moves

    def _reach(self, start, step):
        x, y = start
        while True:
            x, y = x + step[0], y + step[1]
            if not (0 <= x < self._width and 0 <= y < self._height):
                return
            if self._board[x][y]:
                if self._through_closed:
                    continue
                return
            yield (x, y)
            if not self._slide_far:
                return
