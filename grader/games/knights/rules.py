"""Isolation to be played by agents: the lesson's queen game on any board, and
knight's isolation.

Both are the trusted isolation state (``grader.games.isolation.rules``) with
what an agent's search needs besides: either player's moves (the "improved"
score compares them), whose turn it is and where each player stands. A
knight's isolation player jumps like a chess knight (over anything) to an open
cell; the first move of each player may go to any open cell, as in the lesson.

A board also speaks the names of ``isolation.Board``, the board of a well-known
knight's-isolation course project, so that agents written against it run as
they are: its players are objects (the agent itself, and a stand-in for its
opponent, in an agent's process; the seats 0 and 1 otherwise), and a move is
the same pair of ints in either (the board is square, the knight's jumps
symmetric: that project's (row, column) is this board's (x, y)). Real projects
read that board's private state too, of its 2017 version and of an older one: a
board offers both (``course``), kept in step with each move.
"""

from typing import Any

from grader.games.isolation.rules import GameState, draw, from_data, to_data
from grader.games.knights.course import CourseState

# The eight knight's jumps, as (dx, dy).
JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


class QueenBoard(CourseState, GameState):
    """The lesson's game for agents: ``get_legal_moves(player)`` for either player."""

    _players: tuple[object, object] = (0, 1)
    # The cells played so far and who played each, as far as known (``course``).
    _played: tuple[tuple[tuple[int, int], int], ...] = ()

    def seated(self, players: tuple[object, object]) -> "QueenBoard":
        """This board with ``players`` in seats 0 and 1 (``isolation.Board``'s players)."""
        self._players = players
        return self

    @property
    def width(self) -> int:
        return self._width

    @property
    def height(self) -> int:
        return self._height

    def forecast_move(self, move: tuple[int, int]) -> "QueenBoard":
        child = super().forecast_move(move)
        assert isinstance(child, QueenBoard)
        child._played = (*self._played, (move, self._parity))
        return child

    def knowing(self, played: dict[tuple[int, int], int]) -> "QueenBoard":
        """This board, told who played each cell of ``played`` (a seat a cell)."""
        self._played = tuple(played.items())
        return self

    def get_legal_moves(self, player: int | None = None) -> list[tuple[int, int]]:
        """The moves of ``player`` (0 or 1; the player to move when None), were it
        that player's turn."""
        player = self._parity if player is None else self._seat(player)
        if player == self._parity:
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

    # -- isolation.Board's names ----------------------------------------------------

    def _seat(self, player: object) -> int:
        """The seat of ``player``: one of the board's players, or a seat's number."""
        for seat, who in enumerate(self._players):
            if who is player:
                return seat
        if type(player) is int and player in (0, 1):
            return player
        raise ValueError(f"{player!r} plays no part in this game")

    @property
    def active_player(self) -> object:
        return self._players[self._parity]

    @property
    def inactive_player(self) -> object:
        return self._players[self._parity ^ 1]

    def get_opponent(self, player: object) -> object:
        return self._players[self._seat(player) ^ 1]

    def get_player_location(self, player: object) -> tuple[int, int] | None:
        return self.location(self._seat(player))

    def get_blank_spaces(self) -> list[tuple[int, int]]:
        return self.open_cells()

    @property
    def move_count(self) -> int:
        """The moves played so far: the cells closed (no cell is closed at the start)."""
        return sum(map(sum, self._board))

    def move_is_legal(self, move: tuple[int, int]) -> bool:
        return move in self.get_legal_moves()

    def is_loser(self, player: object) -> bool:
        return self._seat(player) == self._parity and not self._moves()

    def is_winner(self, player: object) -> bool:
        return self._seat(player) != self._parity and not self._moves()

    def utility(self, player: object) -> float:
        """-inf for the player who lost, +inf for the winner, 0 while the game goes on."""
        if self._moves():
            return 0.0
        return float("-inf") if self._seat(player) == self._parity else float("inf")

    def copy(self) -> "QueenBoard":
        child = object.__new__(type(self))
        child.__dict__.update(self.__dict__)
        child._board = [list(column) for column in self._board]
        child._player_locations = list(self._player_locations)
        return child

    def apply_move(self, move: tuple[int, int]) -> None:
        """Play ``move`` on this board itself (``forecast_move`` leaves it be)."""
        self.__dict__.update(self.forecast_move(move).__dict__)

    def hash(self) -> int:
        return hash((tuple(map(tuple, self._board)), tuple(self._player_locations),
                     self._parity))

    def to_string(self) -> str:
        return draw(self)


class KnightsBoard(QueenBoard):
    """Knight's isolation: a player jumps like a chess knight to an open cell."""

    def _moves(self) -> list[tuple[int, int]]:
        return self.__get_moves__(self._player_locations[self._parity])

    def __get_moves__(self, here: tuple[int, int] | None) -> list[tuple[int, int]]:
        """The open cells a knight on ``here`` may jump to (all open cells from
        None): the older ``isolation.Board``'s name."""
        if here is None:
            return self.open_cells()
        board, width, height = self._board, self._width, self._height
        x, y = here
        return [(x + dx, y + dy) for dx, dy in JUMPS
                if 0 <= x + dx < width and 0 <= y + dy < height and not board[x + dx][y + dy]]


class Board(KnightsBoard):
    """Knight's isolation made as ``isolation.Board`` is: two players and a size."""

    BLANK = 0
    NOT_MOVED = None

    def __init__(self, player_1: object = 0, player_2: object = 1, width: int = 7,
                 height: int = 7) -> None:
        super().__init__(width, height, ())
        self._players = (player_1, player_2)


# The games an agent may be matched on: the state's class and its board.
VARIANTS: dict[str, tuple[type[QueenBoard], dict[str, Any]]] = {
    "knights": (KnightsBoard, {"width": 7, "height": 7, "blocked": ()}),
    "queens": (QueenBoard, {"width": 5, "height": 5, "blocked": ()}),
}


def new_board(variant: str) -> QueenBoard:
    kind, size = VARIANTS[variant]
    return kind(size["width"], size["height"], size["blocked"])


def board_from_data(variant: str, data: dict[str, Any],
                    kind: type[QueenBoard] | None = None) -> QueenBoard:
    """A trusted board of ``variant`` rebuilt from ``to_data``'s plain data (of
    ``kind``, a subclass of the variant's, where given)."""
    state = from_data(data)
    board = object.__new__(kind or VARIANTS[variant][0])
    board.__dict__.update(state.__dict__)
    return board


__all__ = ["JUMPS", "Board", "KnightsBoard", "QueenBoard", "VARIANTS", "board_from_data",
           "new_board", "to_data"]
