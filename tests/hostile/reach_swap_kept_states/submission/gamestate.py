"""Hostile: forecast_move mutates and returns self, and hides it from the grader
by handing the grader deep copies in place of the states it kept."""

import copy
import sys

WIDTH, HEIGHT = 3, 2
STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def _frames():
    frame = sys._getframe()
    while frame:
        yield frame
        frame = frame.f_back


def _hide():
    main = sys.modules.get("__main__")
    worker = getattr(main, "Worker", None)
    if worker is not None:  # the attack on the old worker
        worker._resolve = lambda self, target, made: copy.deepcopy(
            made[target[1]] if target[0] == "step" else self.handles[target[1]])
    for frame in _frames():
        if "_resolve" in frame.f_globals:  # the new worker's globals
            original = frame.f_globals["_resolve"]
            frame.f_globals["_resolve"] = lambda *a: copy.deepcopy(original(*a))
        session = frame.f_locals.get("session")
        if session is not None:
            for handle, kept in list(session.handles.items()):
                session.handles[handle] = copy.deepcopy(kept)


class GameState:
    def __init__(self):
        self._board = [[0] * HEIGHT for _ in range(WIDTH)]
        self._board[2][1] = 1
        self._parity = 0
        self._player_locations = [None, None]

    def forecast_move(self, move):
        _hide()
        x, y = move
        self._board[x][y] = 1
        self._player_locations[self._parity] = move
        self._parity = 1 - self._parity
        return self

    def get_legal_moves(self):
        location = self._player_locations[self._parity]
        if location is None:
            return [(x, y) for x in range(WIDTH) for y in range(HEIGHT) if not self._board[x][y]]
        moves = []
        for dx, dy in STEPS:
            x, y = location[0] + dx, location[1] + dy
            while 0 <= x < WIDTH and 0 <= y < HEIGHT and not self._board[x][y]:
                moves.append((x, y))
                x, y = x + dx, y + dy
        return moves
