"""The trusted game of Kayles.

A row of pins; a move knocks down one standing pin, or two standing pins side
by side; the player who cannot move has lost. It keeps the lesson's
``GameState`` API (``get_legal_moves``, ``forecast_move``, ``_parity``), so
the lesson's search code plays it unchanged: a position is over when the
player to move has no legal move, and that player has lost.

A move is ``(first, last)``: the first and last pin knocked down, numbered
from 0 on the left (``(2, 2)`` one pin, ``(2, 3)`` two).
"""

# Handed to students, and sent to the grader's stand-ins as source: this file
# imports nothing, not even ``typing``.
# mypy: allow-any-generics

SMALL_ROW = {"pins": 6}
LARGE_ROW = {"pins": 9}


class GameState:
    """A row of Kayles pins: ``_pins[i]`` is 1 while pin ``i`` stands."""

    def __init__(self, pins: int = 6) -> None:
        self._pins = [1] * pins
        self._parity = 0  # 0 when player 1 is to move

    def forecast_move(self, move: tuple[int, int]) -> "GameState":
        """Return a new state with ``move`` played by the player to move."""
        if move not in self.get_legal_moves():
            raise RuntimeError(f"illegal move {move!r}")
        child = object.__new__(type(self))
        child.__dict__.update(self.__dict__)
        child._pins = list(self._pins)
        first, last = move
        for pin in range(first, last + 1):
            child._pins[pin] = 0
        child._parity ^= 1
        return child

    def get_legal_moves(self) -> list[tuple[int, int]]:
        """Return the list of moves open to the player to move, left to right:
        each standing pin alone, then with its right-hand neighbour."""
        pins = self._pins
        moves = []
        for pin, standing in enumerate(pins):
            if standing:
                moves.append((pin, pin))
                if pin + 1 < len(pins) and pins[pin + 1]:
                    moves.append((pin, pin + 1))
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


def new_game(size: dict = SMALL_ROW) -> GameState:
    return GameState(size["pins"])


def to_data(state: GameState) -> dict[str, object]:
    """Plain data that describes ``state`` fully (it crosses process borders)."""
    return {"pins": list(state._pins), "parity": state._parity}


def from_data(data: dict) -> GameState:
    """Rebuild a trusted state from :func:`to_data`'s output."""
    state = GameState(0)
    state._pins = [1 if pin else 0 for pin in data["pins"]]
    state._parity = data["parity"]
    return state


def key(state: GameState) -> tuple[tuple[int, ...], int]:
    """A hashable key of a position (equal positions, equal keys)."""
    return tuple(state._pins), state._parity


def label(state: GameState) -> str:
    """A position's key as text: how the grader's terminal_test, in the
    student's process, names the position it was asked about."""
    return repr(key(state))


def reachable(root: GameState) -> list[tuple[GameState, tuple[tuple[int, int], ...]]]:
    """Every position reachable from ``root``, each once, with the shortest
    move sequence that reaches it, smallest first (fewest moves, then the
    sequence's order)."""
    seen = {key(root)}
    order: list[tuple[GameState, tuple[tuple[int, int], ...]]] = [(root, ())]
    frontier = list(order)
    while frontier:
        found: list[tuple[GameState, tuple[tuple[int, int], ...]]] = []
        for state, path in frontier:
            for move in state.get_legal_moves():
                child = state.forecast_move(move)
                if key(child) not in seen:
                    seen.add(key(child))
                    found.append((child, path + (move,)))
        found.sort(key=lambda item: item[1])
        order.extend(found)
        frontier = found
    return order


def draw(state: GameState) -> str:
    """The row as text: ``I`` a standing pin, ``.`` a fallen one, numbered."""
    numbers = " ".join(str(pin % 10) for pin in range(len(state._pins)))
    row = " ".join("I" if pin else "." for pin in state._pins)
    return f"pin  {numbers}\n     {row}\nplayer {state._parity + 1} to move"
