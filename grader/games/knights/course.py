"""The private state of the course project's ``isolation.Board``, which real
projects read (hash keys, symmetries, where the players stand): both versions.

The 2017 board keeps ``_board_state``, a flat list: a cell ``(row, column)`` at
``row + column * height`` (0 open, 1 closed), then three entries: the parity
(0 when player 1 is to move, 1 when player 2 is), player 2's cell, player 1's
cell (each as its index in the list, None before its first move); and
``_player_1``, ``_player_2``, ``_active_player``, ``_inactive_player``.

The older board keeps ``__board_state__``, rows of columns (``[row][column]``:
0 open, else the symbol of the player who stood there, 1 or 2),
``__last_player_move__`` (each player's cell, None before its first move),
``__player_symbols__`` (``{0: 0, player_1: 1, player_2: 2}``),
``__player_1__``, ``__player_2__``, ``__active_player__``,
``__inactive_player__``, and ``__get_moves__(cell)``.

Here they are views, made afresh from the board's own state when read: what an
agent changes in one changes nothing (the originals' agents only read them).
A cell's player is known from the moves played on the board (``_played``);
the agent's process tells the board those of the game so far.
"""

from typing import Any

Cell = tuple[int, int]


class CourseState:
    """The course board's private names, for a board with isolation's state."""

    _board: list[list[int]]
    _width: int
    _height: int
    _parity: int
    _player_locations: list[Cell | None]
    _players: tuple[object, object]
    _played: tuple[tuple[Cell, int], ...]

    def _index(self, cell: Cell | None) -> int | None:
        return None if cell is None else cell[0] + cell[1] * self._height

    # -- the 2017 board -----------------------------------------------------------

    @property
    def _board_state(self) -> list[int | None]:
        height = self._height
        cells: list[int | None] = [0] * (self._width * height)
        for x, column in enumerate(self._board):
            for y, closed in enumerate(column):
                if closed:
                    cells[x + y * height] = 1
        first, second = self._player_locations
        return [*cells, self._parity, self._index(second), self._index(first)]

    @property
    def _player_1(self) -> object:
        return self._players[0]

    @property
    def _player_2(self) -> object:
        return self._players[1]

    @property
    def _active_player(self) -> object:
        return self._players[self._parity]

    @property
    def _inactive_player(self) -> object:
        return self._players[self._parity ^ 1]

    # -- the older board -----------------------------------------------------------

    def _seats(self) -> dict[Cell, int]:
        """Who stood on each cell, where known: the moves played, then the cells
        the players stand on now."""
        seats = dict(self._played)
        for seat, cell in enumerate(self._player_locations):
            if cell is not None:
                seats[cell] = seat
        return seats

    @property
    def __board_state__(self) -> list[list[int]]:
        seats = self._seats()
        return [[(seats.get((x, y), 0) + 1) if self._board[x][y] else 0
                 for y in range(self._width)] for x in range(self._height)]

    @property
    def __last_player_move__(self) -> dict[Any, Cell | None]:
        first, second = self._player_locations
        return {self._players[0]: first, self._players[1]: second}

    @property
    def __player_symbols__(self) -> dict[Any, int]:
        return {0: 0, self._players[0]: 1, self._players[1]: 2}

    @property
    def __player_1__(self) -> object:
        return self._players[0]

    @property
    def __player_2__(self) -> object:
        return self._players[1]

    @property
    def __active_player__(self) -> object:
        return self._players[self._parity]

    @property
    def __inactive_player__(self) -> object:
        return self._players[self._parity ^ 1]
