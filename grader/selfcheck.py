"""A self-check for a minimax exercise: a few facts of the lesson, on your code.

`minimax-grader stub` writes this file beside your starter, with
check_<exercise>.py, which holds the exercise's facts (each exercise folder's
check.py). Run that one there, with no grader installed:

    python check_helpers.py

It checks a handful of facts that the exercise's README states (the moves
at the start, a value or two), so that you can try your code as you write
it. It is no grade: the grader tests every position of the game, with
feedback on the smallest one where your answer differs. This module holds
what the facts share: how they are checked, and the lesson's positions.
"""

from __future__ import annotations  # never evaluated: an older Python runs this file too

import sys
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    Fact = tuple[str, Callable[[], None]]  # a fact in words, and its check: Wrong if it fails

PREFIX = "check_"
START = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]  # every open cell of the 3 x 2 board
BEST_FIRST = {(0, 0), (0, 1), (2, 0)}  # the best first moves (the decision's README)
BOXED_IN = [(1, 0), (2, 0), (1, 1)]  # after these, player 2 on (2, 0) has no move
ONE_LEFT = [(2, 0), (1, 0)]  # after these, player 1 on (2, 0) has one move: (1, 1)
# Kayles, from the full row of six pins (kayles.py's moves: first and last pin knocked down)
KAYLES_BEST_FIRST = {(1, 1), (2, 3), (4, 4)}  # the best first moves (kayles_decision's README)
ALL_DOWN = [(0, 1), (2, 3), (4, 5)]  # after these no pin stands: player 2 can't move
TWO_LEFT = [(0, 1), (2, 3)]  # after these pins 4 and 5 stand: only (4, 5) wins


class Wrong(Exception):
    """A fact that does not hold, in words."""


class Runaway(BaseException):
    """A counted search that went on far past anything a fact asks for: raised
    in your code's own call, and no ``except Exception`` of yours stops it."""


RUNAWAY_CALLS = 100_000  # terminal tests; every fact's search makes far fewer


def expect(got: object, expected: object, what: str) -> None:
    if got != expected:
        raise Wrong(f"{what}: expected {expected!r}, got {got!r}")


def expect_truth(got: object, expected: bool, what: str) -> None:
    """Any true or false value will do, as it does for the grader."""
    if bool(got) != expected:
        raise Wrong(f"{what}: expected a {str(expected).lower()} value, got {got!r}")


def moves(state: Any) -> list[tuple[int, ...]]:
    """The state's legal moves, sorted; Wrong unless they come as a list."""
    found = state.get_legal_moves()
    if type(found) is not list:
        raise Wrong(f"get_legal_moves() returned a {type(found).__name__}, where a list is due")
    return sorted(tuple(move) for move in found)


def play(state: Any, path: Iterable[tuple[int, int]]) -> Any:
    for move in path:
        state = state.forecast_move(move)
    return state


def best_first(decide: Callable[[], object], what: str,
               best: set[tuple[int, int]] = BEST_FIRST) -> None:
    """``decide()`` returns one of the ``best`` first moves (mini-isolation's by default)."""
    move = decide()
    if move not in best:
        raise Wrong(f"{what} returned {move!r}; the best first moves are "
                    f"{', '.join(map(str, sorted(best)))}")


def terminal_tests(module: Any, search: Callable[[Callable[[], int]], object],
                   ticks: int | None = None) -> int:
    """How often ``search(time_left)`` calls ``module.terminal_test``, counted
    from outside as the grader counts (call_counter is yours to read);
    ``time_left()`` is the ticks left of ``ticks`` (a search with no clock: 0),
    one spent at each call."""
    calls, own = [], module.terminal_test

    def counting(state: Any) -> Any:
        calls.append(state)
        if len(calls) > RUNAWAY_CALLS:
            raise Runaway(f"stopped after {RUNAWAY_CALLS:,} terminal tests: the search does "
                          "not end" + (" on its clock (is time_left read in min_value and "
                                       "max_value?)" if ticks is not None else ""))
        return own(state)

    module.terminal_test = counting
    try:
        search(lambda: (ticks or 0) - len(calls))
    finally:
        module.terminal_test = own
    return len(calls)


def timed_action(module: Any, new_state: Callable[[], Any], ticks: int,
                 path: Iterable[tuple[int, int]] = ()) -> tuple[object, int]:
    """``module.get_action`` after ``path`` from ``new_state()`` with ``ticks`` on
    its clock: (its move, its terminal tests)."""
    moves: list[object] = []
    calls = terminal_tests(module, lambda left: moves.append(
        module.get_action(play(new_state(), path), left)), ticks)
    return moves[0], calls


def within_the_time(module: Any, new_state: Callable[[], Any], ticks: int
                    ) -> Callable[[], None]:
    """The fact that get_action with ``ticks`` makes at most that many terminal tests."""
    def fact() -> None:
        calls = timed_action(module, new_state, ticks)[1]
        if calls > ticks:
            raise Wrong(f"get_action with {ticks} ticks made {calls} terminal tests")
    return fact


def count_fact(module: Any, search: Callable[[Callable[[], int]], object], count: int,
                what: str) -> Callable[[], None]:
    return lambda: expect(terminal_tests(module, search), count, f"terminal_test calls in {what}")


def lab_game(board: str) -> Any:
    """The lab's Game, its current_state set to ``board`` (nine marks, row by row)."""
    from tictactoe import Game  # type: ignore[import-not-found]

    game = Game()
    game.current_state = [list(board[0:3]), list(board[3:6]), list(board[6:9])]
    game.player_turn = "X" if board.count("X") == board.count("O") else "O"
    return game


def is_end_calls(game: Any, name: str, *args: int) -> tuple[Any, int]:
    """What ``game.name(*args)`` returns, and how often it called is_end (the
    grader counts through the class too, from outside)."""
    cls, calls = type(game), []
    own = cls.is_end

    def counting(self: Any) -> Any:
        calls.append(1)
        return own(self)

    cls.is_end = counting
    try:
        found = getattr(game, name)(*args)
    finally:
        cls.is_end = own
    return found, len(calls)


def search_fact(name: str, board: str, args: tuple[int, ...], value: int,
                 moves: set[tuple[int, int]], calls: int) -> Callable[[], None]:
    def fact() -> None:
        game = lab_game(board)
        found, counted = is_end_calls(game, name, *args)
        if not (isinstance(found, tuple) and len(found) == 3):
            raise Wrong(f"{name}() returned {found!r}, where (value, row, col) is due")
        expect(found[0], value, f"the value of {name}()")
        if tuple(found[1:]) not in moves:
            raise Wrong(f"{name}() moved to {tuple(found[1:])}, where the best is one of "
                        f"{sorted(moves)}")
        expect("".join("".join(row) for row in game.current_state), board,
               f"the board after {name}() (put every mark back)")
        expect(counted, calls, f"is_end calls in {name}()")
    return fact


def _failure(exc: BaseException) -> str:
    if isinstance(exc, (Wrong, Runaway)):
        return str(exc)
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (f"raised {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}, line {where.lineno})")


def check(exercise: str, facts: Callable[[], list[Fact]]) -> int:
    """Check ``facts`` of ``exercise`` on the files in the current sys.path; how
    many failed (every fact when the files can't be imported)."""
    print(f"{PREFIX}{exercise}: a few facts of the lesson, checked on your code")
    try:
        found = facts()
    except Exception as exc:
        print(f"  your file could not be imported: {_failure(exc)}")
        return 1
    failed = 0
    for words, fact in found:
        try:
            fact()
            print(f"  ok      {words}")
        except (Exception, Runaway) as exc:  # the student's code may raise anything
            failed += 1
            print(f"  FAILED  {words}\n          {_failure(exc)}")
    print(f"{len(found) - failed} of {len(found)} hold. This is no grade: grade your work "
          f"with `minimax-grader grade --exercise {exercise} .`, which tests every position.")
    return failed


def run(facts: Callable[[], list[Fact]]) -> None:
    """Check the facts of the check_<exercise>.py that runs, and exit: 1 if one fails."""
    name = Path(sys.argv[0]).stem
    sys.exit(1 if check(name.removeprefix(PREFIX), facts) else 0)


if __name__ == "__main__":
    sys.exit(f"run the {PREFIX}<exercise>.py beside this file: it holds the exercise's facts")
