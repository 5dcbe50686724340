"""The trusted mini-isolation game.

Students have seen the lesson's reference state, so this one keeps the same
attributes: ``_board[x][y]`` (0 open, 1 closed), ``_parity`` (0 when player 1 is
to move) and ``_player_locations`` (``[None, None]`` before the first moves).
The board size and blocked cells are parameters so that the suites can also
run a student's search on larger boards.
"""

# Handed to students, this file imports nothing, not even ``typing``: the board
# sizes and ``from_data``'s data (JSON) can only be typed as plain ``dict``s.
# mypy: allow-any-generics

SMALL_BOARD = {"width": 3, "height": 2, "blocked": ((2, 1),)}
LARGE_BOARD = {"width": 4, "height": 3, "blocked": ((3, 2), (1, 1))}

# The eight queen directions, as (dx, dy).
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


class GameState:
    """A mini-isolation position. Moves are ``(x, y)`` = (column, row)."""

    def __init__(self, width: int = 3, height: int = 2,
                 blocked: tuple[tuple[int, int], ...] = ((2, 1),)) -> None:
        self._width = width
        self._height = height
        self._board = [[0] * height for _ in range(width)]
        for x, y in blocked:
            self._board[x][y] = 1
        self._parity = 0
        self._player_locations: list[tuple[int, int] | None] = [None, None]

    def forecast_move(self, move: tuple[int, int]) -> "GameState":
        """Return a new state with ``move`` played by the player to move."""
        if move not in self.get_legal_moves():
            raise RuntimeError(f"illegal move {move!r}")
        return self._play(move)

    def _play(self, move: tuple[int, int]) -> "GameState":
        # A deep copy, written out: copy.deepcopy is the search's main cost
        # (and copy.copy's generic path, a good part of what is left).
        child = object.__new__(type(self))
        child.__dict__.update(self.__dict__)
        child._board = [list(column) for column in self._board]
        child._player_locations = list(self._player_locations)
        x, y = move
        child._board[x][y] = 1
        child._player_locations[self._parity] = move
        child._parity ^= 1
        return child

    def get_legal_moves(self) -> list[tuple[int, int]]:
        """Return the list of moves open to the player to move."""
        here = self._player_locations[self._parity]
        board, width, height = self._board, self._width, self._height
        if here is None:
            return [(x, y) for x in range(width) for y in range(height) if board[x][y] == 0]
        moves = []
        for dx, dy in DIRECTIONS:  # a queen's slide, through open cells only
            x, y = here
            while True:
                x, y = x + dx, y + dy
                if not (0 <= x < width and 0 <= y < height) or board[x][y]:
                    break
                moves.append((x, y))
        return moves

    def replay(self, path: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> "GameState":
        """The position after playing ``path`` from this one."""
        state: GameState = self
        for move in path:
            state = state.forecast_move(move)
        return state

    def player(self) -> int:
        """0 when player 1 is to move, 1 when player 2 is."""
        return self._parity


def new_game(size: dict = SMALL_BOARD) -> GameState:
    return GameState(size["width"], size["height"], size["blocked"])


def to_data(state: GameState) -> dict[str, object]:
    """Plain data that describes ``state`` fully (it crosses process borders)."""
    return {
        "width": state._width,
        "height": state._height,
        "board": [list(column) for column in state._board],
        "parity": state._parity,
        "locations": [list(loc) if loc else None for loc in state._player_locations],
    }


def from_data(data: dict) -> GameState:
    """Rebuild a trusted state from :func:`to_data`'s output."""
    state = GameState(data["width"], data["height"], ())
    state._board = [list(column) for column in data["board"]]
    state._parity = data["parity"]
    state._player_locations = [tuple(loc) if loc else None for loc in data["locations"]]
    return state


def key(state: GameState) -> tuple[int, int, tuple[tuple[int, ...], ...], int,
                                   tuple[tuple[int, int] | None, ...]]:
    """A hashable key of a position (equal positions, equal keys)."""
    return (
        state._width,
        state._height,
        tuple(map(tuple, state._board)),
        state._parity,
        tuple(state._player_locations),
    )


def label(state: GameState) -> str:
    """A position's key as text: how the grader's terminal_test, in the
    student's process, names the position it was asked about."""
    return repr(key(state))


def reachable(root: GameState) -> list[tuple[GameState, tuple[tuple[int, int], ...]]]:
    """Every position reachable from ``root``, each once, with the shortest
    move sequence that reaches it, smallest first (fewest moves, then the
    sequence's order) so that feedback can name the smallest failing state."""
    seen: dict[tuple[object, ...], tuple[tuple[int, int], ...]] = {key(root): ()}
    order: list[tuple[GameState, tuple[tuple[int, int], ...]]] = [(root, ())]
    frontier: list[tuple[GameState, tuple[tuple[int, int], ...]]] = [(root, ())]
    while frontier:
        nxt = []
        for state, path in frontier:
            for move in sorted(state.get_legal_moves()):
                child = state.forecast_move(move)
                k = key(child)
                if k not in seen:
                    seen[k] = path + (move,)
                    nxt.append((child, path + (move,)))
        nxt.sort(key=lambda item: item[1])
        order.extend(nxt)
        frontier = nxt
    return order


def draw(state: GameState) -> str:
    """The board as text: ``1``/``2`` the players, ``#`` closed, ``.`` open."""
    locations = {loc: str(i + 1) for i, loc in enumerate(state._player_locations) if loc}
    lines = ["     " + " ".join(f"x={x}" for x in range(state._width))]
    for y in range(state._height):
        cells = []
        for x in range(state._width):
            mark = locations.get((x, y)) or ("#" if state._board[x][y] else ".")
            cells.append(f" {mark} ")
        lines.append(f"y={y}  " + " ".join(cells))
    lines.append(f"player {state._parity + 1} to move")
    return "\n".join(lines)
