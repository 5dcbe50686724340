"""Models of the known rules mistakes in a student's ``GameState``.

A ``FlawedGame`` plays like the trusted game but for its flaws. The suites
replay the same move sequences on it as on the student's class; a mistake is
named only when its model gives the student's answers. Each model comes with
what it does, said in the student's terms, for the feedback.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from grader.games.isolation.rules import DIRECTIONS, GameState

ORTHOGONAL = DIRECTIONS[:4]
DIRECTION_NAMES = {
    (1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up",
    (1, 1): "down and right", (1, -1): "up and right",
    (-1, 1): "down and left", (-1, -1): "up and left",
}
OPEN_CELLS = [(x, y) for x in range(3) for y in range(2) if (x, y) != (2, 1)]


class FlawedGame(GameState):
    def __init__(self, blocked: tuple[tuple[int, int], ...] = ((2, 1),),
                 size: tuple[int, int] = (3, 2),
                 directions: tuple[tuple[int, int], ...] = DIRECTIONS, slide: bool = True,
                 through_closed: bool = False, hand_over: bool = True, swap_xy: bool = False,
                 location_swapped: bool = False, reopens: bool = False,
                 placed: tuple[tuple[int, int] | None, tuple[int, int] | None] = (None, None),
                 ) -> None:
        super().__init__(*size, blocked)
        self._directions = directions
        self._slide_far = slide
        self._through_closed = through_closed
        self._hand_over = hand_over
        self._swap_xy = swap_xy
        self._location_swapped = location_swapped
        self._reopens = reopens  # the cell a player leaves is open again
        for player, cell in enumerate(placed):
            if cell:
                self._board[cell[0]][cell[1]] = 1
                self._player_locations[player] = cell

    def forecast_move(self, move: tuple[int, int]) -> GameState:
        # Replayed sequences come from the trusted game; a model plays them
        # whatever it thinks of their legality.
        child = self._play(move)
        left = self._player_locations[self._parity]
        if self._reopens and left is not None:
            child._board[left[0]][left[1]] = 0
        if not self._hand_over:
            child._parity = self._parity
        return child

    def get_legal_moves(self) -> list[tuple[int, int]]:
        here = self._player_locations[self._parity]
        if here is None:
            moves = super().get_legal_moves()
        else:
            if self._location_swapped:
                here = here[::-1]
            moves = [m for step in self._directions for m in self._reach(here, step)]
        return [m[::-1] for m in moves] if self._swap_xy else moves

    def _reach(self, start: tuple[int, int], step: tuple[int, int]
               ) -> Iterator[tuple[int, int]]:
        # Bounds are checked after each step, as students write it: a start
        # read off the board (location_swapped) may still step onto it.
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


@dataclass(frozen=True)
class GameModel:
    mistake: str  # the id of its hint (grader/contracts/hints.toml)
    game: FlawedGame
    says: str  # what the student's code does, in the student's terms


def _cell(cell: tuple[int, int]) -> str:
    return f"({cell[0]}, {cell[1]})"


def _direction_models() -> list[GameModel]:
    models = []
    for gone in DIRECTIONS:
        rest = tuple(d for d in DIRECTIONS if d != gone)
        models.append(GameModel("direction_missing", FlawedGame(directions=rest),
                                f"your moves never go {DIRECTION_NAMES[gone]}"))
        models.append(GameModel("direction_doubled", FlawedGame(directions=DIRECTIONS + (gone,)),
                                f"your moves going {DIRECTION_NAMES[gone]} come out twice"))
        for twice in rest:  # a typo: one direction written where another was due
            typo = tuple(twice if d == gone else d for d in DIRECTIONS)
            models.append(GameModel(
                "direction_replaced", FlawedGame(directions=typo),
                f"your moves never go {DIRECTION_NAMES[gone]}, and the ones going "
                f"{DIRECTION_NAMES[twice]} come out twice"))
    return models


def _placed_models() -> list[GameModel]:
    models = []
    for first in OPEN_CELLS:
        models.append(GameModel("players_placed_at_start", FlawedGame(placed=(first, None)),
                                f"your game starts with player 1 already on {_cell(first)}"))
        for second in OPEN_CELLS:
            if second != first:
                models.append(GameModel(
                    "players_placed_at_start", FlawedGame(placed=(first, second)),
                    f"your game starts with player 1 already on {_cell(first)} and "
                    f"player 2 on {_cell(second)}"))
    return models


GAME_MODELS = [
    GameModel("blocked_cell_missing", FlawedGame(blocked=()),
              "your board has no blocked cell: (2, 1) is open"),
    *[GameModel("wrong_cell_blocked", FlawedGame(blocked=(cell,)),
                f"your board blocks {_cell(cell)} instead of (2, 1)") for cell in OPEN_CELLS],
    GameModel("xy_swapped", FlawedGame(swap_xy=True), "your moves come out as (y, x)"),
    GameModel("board_transposed", FlawedGame(size=(2, 3), blocked=((1, 2),)),
              "your board is 2 wide and 3 tall, so your moves come out as (y, x), and a "
              "move to column 2 falls off it"),
    GameModel("location_read_as_yx", FlawedGame(location_swapped=True),
              "your code reads the player's location as (y, x) before it slides"),
    GameModel("slides_through_closed", FlawedGame(through_closed=True),
              "your slides jump over closed cells and the other player"),
    GameModel("no_diagonals", FlawedGame(directions=ORTHOGONAL),
              "your moves never go diagonally"),
    *_direction_models(),
    GameModel("cell_left_open", FlawedGame(reopens=True),
              "the cell a player leaves is open again, so a player can move back onto it"),
    # (a turn never handed over, or the other player's cell read: the same moves)
    GameModel("turn_not_handed_over", FlawedGame(hand_over=False),
              "after a move, your moves are those of the player who just moved: they "
              "slide from where that player stands, not from the cell of the player "
              "now to move"),
    GameModel("one_step", FlawedGame(slide=False),
              "your moves go one cell, like a king, instead of sliding"),
    *_placed_models(),
]
