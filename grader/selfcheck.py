"""A self-check for a minimax exercise: a few facts of the lesson, on your code.

`minimax-grader stub` writes this file beside your starter as
check_<exercise>.py. Run it there, with no grader installed:

    python check_helpers.py

It checks a handful of facts that the exercise's README states (the moves
at the start, a value or two), so that you can try your code as you write
it. It is no grade: the grader tests every position of the game, with
feedback on the smallest one where your answer differs.
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


class Wrong(Exception):
    """A fact that does not hold, in words."""


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


def gamestate_facts() -> list[Fact]:
    # Your modules, found beside this file when it runs (mypy looks for each once).
    from gamestate import GameState  # type: ignore[import-not-found]

    def forecast_is_new() -> None:
        start = GameState()
        child = start.forecast_move((0, 0))
        if child is start or child is None:
            raise Wrong(f"forecast_move((0, 0)) returned {child!r}, where a new GameState "
                        "is due")
        expect(moves(start), START, "the moves of the state it was called on, after it")

    return [
        ("at the start, every open cell is a move",
         lambda: expect(moves(GameState()), START, "GameState().get_legal_moves()")),
        ("forecast_move returns a new state and leaves its own unchanged", forecast_is_new),
        ("after (0, 0), player 2 may take any open cell",
         lambda: expect(moves(play(GameState(), [(0, 0)])), START[1:], "the moves")),
        ("after (0, 0), (0, 1), player 1 slides like a queen, through open cells",
         lambda: expect(moves(play(GameState(), [(0, 0), (0, 1)])), [(1, 0), (1, 1), (2, 0)],
                        "the moves")),
    ]


def helpers_facts() -> list[Fact]:
    from gamestate import GameState
    from minimax_helpers import (  # type: ignore[import-not-found]
        max_value,
        min_value,
        terminal_test,
    )

    return [
        ("terminal_test: the empty board is not terminal",
         lambda: expect_truth(terminal_test(GameState()), False, "terminal_test(GameState())")),
        ("terminal_test: a player with no move is stuck",
         lambda: expect_truth(terminal_test(play(GameState(), BOXED_IN)), True,
                              f"terminal_test after the moves {BOXED_IN}")),
        ("min_value: a terminal state is worth +1, max_value: -1",
         lambda: expect((min_value(play(GameState(), BOXED_IN)),
                         max_value(play(GameState(), BOXED_IN))), (1, -1),
                        "(min_value, max_value) of it")),
        ("min_value: the empty board is worth -1",
         lambda: expect(min_value(GameState()), -1, "min_value(GameState())")),
    ]


def _best_first(decide: Callable[[], object], what: str) -> None:
    move = decide()
    if move not in BEST_FIRST:
        raise Wrong(f"{what} returned {move!r}; the best first moves are "
                    f"{', '.join(map(str, sorted(BEST_FIRST)))}")


def decision_facts() -> list[Fact]:
    from gamestate import GameState
    from minimax import minimax_decision  # type: ignore[import-not-found]

    return [
        ("from the empty board, a best move",
         lambda: _best_first(lambda: minimax_decision(GameState()),
                             "minimax_decision(GameState())")),
        ("with one move left, that move",
         lambda: expect(minimax_decision(play(GameState(), ONE_LEFT)), (1, 1),
                        f"minimax_decision after the moves {ONE_LEFT}")),
    ]


def depth_limit_facts() -> list[Fact]:
    import minimax
    from gamestate import GameState

    def five_at_depth_one() -> None:
        # Counted from outside, as the grader counts: call_counter is yours to read.
        calls, own = [], minimax.terminal_test

        def counting(state: Any) -> Any:
            calls.append(state)
            return own(state)

        minimax.terminal_test = counting
        try:
            minimax.minimax_decision(GameState(), 1)
        finally:
            minimax.terminal_test = own
        expect(len(calls), 5, "terminal_test calls in minimax_decision(GameState(), 1)")

    return [
        ("depth 1 from the empty board: terminal_test is called 5 times", five_at_depth_one),
        ("at the cutoff (depth 0) the value is 0",
         lambda: expect((minimax.min_value(GameState(), 0), minimax.max_value(GameState(), 0)),
                        (0, 0), "(min_value, max_value) of the empty board at depth 0")),
        ("a terminal state is tested first, before the cutoff",
         lambda: expect(minimax.min_value(play(GameState(), BOXED_IN), 0), 1,
                        f"min_value at depth 0 after the moves {BOXED_IN}")),
        ("searching deep enough, a best move",
         lambda: _best_first(lambda: minimax.minimax_decision(GameState(), 10),
                             "minimax_decision(GameState(), 10)")),
    ]


FACTS = {"gamestate": gamestate_facts, "helpers": helpers_facts,
         "decision": decision_facts, "depth_limit": depth_limit_facts}


def _failure(exc: BaseException) -> str:
    if isinstance(exc, Wrong):
        return str(exc)
    where = traceback.extract_tb(exc.__traceback__)[-1]
    return (f"raised {type(exc).__name__}: {exc} "
            f"({Path(where.filename).name}, line {where.lineno})")


def check(exercise: str) -> int:
    """Check the facts of ``exercise`` on the files in the current sys.path; how
    many failed (every fact when the files can't be imported)."""
    print(f"{PREFIX}{exercise}: a few facts of the lesson, checked on your code")
    try:
        facts = FACTS[exercise]()
    except Exception as exc:
        print(f"  your file could not be imported: {_failure(exc)}")
        return 1
    failed = 0
    for words, fact in facts:
        try:
            fact()
            print(f"  ok      {words}")
        except Exception as exc:  # the student's code may raise anything
            failed += 1
            print(f"  FAILED  {words}\n          {_failure(exc)}")
    print(f"{len(facts) - failed} of {len(facts)} hold. This is no grade: grade your work "
          f"with `minimax-grader grade --exercise {exercise} .`, which tests every position.")
    return failed


def main() -> None:
    here = Path(sys.argv[0]).resolve()
    exercise = here.stem[len(PREFIX):] if here.stem.startswith(PREFIX) else None
    if exercise is None or exercise not in FACTS:
        sys.exit(f"name this file {PREFIX}<exercise>.py, for one of: {', '.join(FACTS)}")
    sys.path.insert(0, str(here.parent))  # your files, and the modules given beside them
    sys.exit(1 if check(exercise) else 0)


if __name__ == "__main__":
    main()
