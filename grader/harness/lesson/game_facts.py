"""Facts about a student's GameState rules, read off its legal moves.

On a position of the lesson's game, each move the student's get_legal_moves
offers that the lesson's does not, and each one it leaves out, is looked at
on the lesson's board: a cell off the board, a closed one, one offered twice,
one off the player's lines, one past a closed cell; a legal move left out,
and which way it goes. What is said is what the answer shows on that board;
nothing is guessed about how the code came to it.
"""

from collections import Counter
from collections.abc import Iterator

from grader.games import Path
from grader.games.isolation.flawed_rules import DIRECTION_NAMES
from grader.games.isolation.rules import GameState
from grader.harness.checking.facts import Fact

Move = tuple[int, int]


def position(path: Path) -> GameState:
    """The lesson's position after ``path`` (legal moves: the suites' own)."""
    state = GameState()
    for move in path:
        state = state._play(move)
    return state


def cell(move: Move) -> str:
    return f"({move[0]}, {move[1]})"


def player(number: int) -> str:
    return f"player {number + 1}"


def _closed_by(path: Path, move: Move) -> str | None:
    """Who closed ``move``'s cell, and when, in the student's terms; None if open."""
    if move == (2, 1):
        return "the blocked cell"
    if move in path:
        turn = path.index(move)
        return f"where {player(turn % 2)} moved on move {turn + 1}"
    return None


def _line(start: Move, end: Move) -> tuple[Move, list[Move]] | None:
    """The queen direction from ``start`` to ``end`` and the cells strictly
    between them, or None when ``end`` is on none of ``start``'s lines."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    steps = max(abs(dx), abs(dy))
    if steps == 0 or dx and dy and abs(dx) != abs(dy):
        return None
    step = (dx // steps, dy // steps)
    return step, [(start[0] + i * step[0], start[1] + i * step[1]) for i in range(1, steps)]


def _extra(state: GameState, path: Path, move: Move, offered: Counter[Move]) -> Fact | None:
    """What an offered move that is not a legal one is, on the lesson's board."""
    here = state._player_locations[state._parity]
    if not (0 <= move[0] < state._width and 0 <= move[1] < state._height):
        return Fact("move_off_board", f"it offers {cell(move)}, which is off the board "
                                      f"(x runs from 0 to 2, y from 0 to 1)")
    closed = _closed_by(path, move)
    if closed:
        return Fact("closed_cell_offered", f"it offers {cell(move)}, {closed}: a closed cell")
    if here is None:
        return None  # every open cell is a first move: an open cell offered is legal
    line = _line(here, move)
    if line is None:
        return Fact("not_a_queen_move", f"it offers {cell(move)}, which is on no row, column "
                                        f"or diagonal of {cell(here)}, where "
                                        f"{player(state._parity)} stands")
    blocking = [c for c in line[1] if _closed_by(path, c) or c in state._player_locations]
    if blocking and not offered[blocking[0]]:
        return Fact("jumps_closed_cell", f"it offers {cell(move)}, past {cell(blocking[0])}, "
                                         f"which is closed, on the way from {cell(here)}")
    return None


def _missing(state: GameState, path: Path, move: Move) -> Fact:
    """What a legal move left out is, on the lesson's board."""
    here = state._player_locations[state._parity]
    if here is None:
        return Fact("open_cell_missing", f"before {player(state._parity)}'s first move it "
                                         f"leaves out {cell(move)}, an open cell")
    line = _line(here, move)
    assert line is not None  # a legal move is on one of the player's lines
    far = len(line[1]) + 1
    return Fact("legal_move_missing", f"it leaves out {cell(move)}, {far} cell"
                                      f"{'' if far == 1 else 's'} {DIRECTION_NAMES[line[0]]} "
                                      f"of {cell(here)}, where {player(state._parity)} stands, "
                                      "with only open cells on the way")


def move_facts(path: Path, got: list[Move]) -> Iterator[Fact]:
    """Facts about ``got``, the moves the student's code offers after ``path``,
    move by move: offered twice, offered though not legal, left out."""
    state = position(path)
    expected, offered = Counter(state.get_legal_moves()), Counter(got)
    for move, count in offered.items():
        if count > 1:
            yield Fact("move_repeated", f"it offers {cell(move)} {count} times")
    for move in offered - expected:
        fact = _extra(state, path, move, offered)
        if fact:
            yield fact
    for move in expected - offered:
        yield _missing(state, path, move)
