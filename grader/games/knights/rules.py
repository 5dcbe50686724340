"""Isolation to be played by agents: the lesson's queen game on any board, and
knight's isolation.

Both are the trusted isolation state (``grader.games.isolation.rules``) with
what an agent's search needs besides: either player's moves (the "improved"
score compares them), whose turn it is and where each player stands. A
knight's isolation player jumps like a chess knight (over anything) to an open
cell; the first move of each player may go to any open cell, as in the lesson.
"""

from typing import Any

from grader.games.isolation.rules import GameState, from_data, to_data

# The eight knight's jumps, as (dx, dy).
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class QueenBoard(GameState):
    """The lesson's game for agents: ``get_legal_moves(player)`` for either player."""

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    def forecast_move(self, move: tuple[int, int]) -> "QueenBoard":
        child = super().forecast_move(move)
        assert isinstance(child, QueenBoard)
        return child

    def get_legal_moves(self, player: int | None = None) -> list[tuple[int, int]]:
        """The moves of ``player`` (0 or 1; the player to move when None), were it
        that player's turn."""
        if player is None or player == self._parity:
            return self._moves()
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view._parity = player
        return view._moves()

    def _moves(self) -> list[tuple[int, int]]:
        return GameState.get_legal_moves(self)

    def opponent(self) -> int:
        """The player who is not to move: 0 or 1."""
        return self._parity ^ 1

    def location(self, player: int) -> tuple[int, int] | None:
        """Where ``player`` stands; None before that player's first move."""
        return self._player_locations[player]

    def open_cells(self) -> list[tuple[int, int]]:
        return [(x, y) for x in range(self._width) for y in range(self._height)
                if not self._board[x][y]]


class KnightsBoard(QueenBoard):
    """Knight's isolation: a player jumps like a chess knight to an open cell."""

    def _moves(self) -> list[tuple[int, int]]:
        here = self._player_locations[self._parity]
        if here is None:
            return self.open_cells()
        board, width, height = self._board, self._width, self._height
        x, y = here
        return [(x + dx, y + dy) for dx, dy in JUMPS
                if 0 <= x + dx < width and 0 <= y + dy < height and not board[x + dx][y + dy]]


# The games an agent may be matched on: the state's class and its board.
VARIANTS: dict[str, tuple[type[QueenBoard], dict[str, Any]]] = {
    "knights": (KnightsBoard, {"width": 7, "height": 7, "blocked": ()}),
    "queens": (QueenBoard, {"width": 5, "height": 5, "blocked": ()}),
}


def new_board(variant: str) -> QueenBoard:
    kind, size = VARIANTS[variant]
    return kind(size["width"], size["height"], size["blocked"])


def board_from_data(variant: str, data: dict[str, Any]) -> QueenBoard:
    """A trusted board of ``variant`` rebuilt from ``to_data``'s plain data."""
    state = from_data(data)
    board = object.__new__(VARIANTS[variant][0])
    board.__dict__.update(state.__dict__)
    return board


__all__ = ["JUMPS", "KnightsBoard", "QueenBoard", "VARIANTS", "board_from_data", "new_board",
           "to_data"]
