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


def terminal_tests(module: Any, search: Callable[[Callable[[], int]], object],
                   ticks: int = 0) -> int:
    """How often ``search(time_left)`` calls ``module.terminal_test``, counted
    from outside as the grader counts (call_counter is yours to read);
    ``time_left()`` is the ticks left of ``ticks``, one spent at each call."""
    calls, own = [], module.terminal_test

    def counting(state: Any) -> Any:
        calls.append(state)
        return own(state)

    module.terminal_test = counting
    try:
        search(lambda: ticks - len(calls))
    finally:
        module.terminal_test = own
    return len(calls)


def _count_fact(module: Any, search: Callable[[Callable[[], int]], object], count: int,
                what: str) -> Callable[[], None]:
    return lambda: expect(terminal_tests(module, search), count, f"terminal_test calls in {what}")


def depth_limit_facts() -> list[Fact]:
    import minimax
    from gamestate import GameState

    return [
        ("depth 1 from the empty board: terminal_test is called 5 times",
         _count_fact(minimax, lambda _: minimax.minimax_decision(GameState(), 1), 5,
                     "minimax_decision(GameState(), 1)")),
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


def _lab_game(board: str) -> Any:
    """The lab's Game, its current_state set to ``board`` (nine marks, row by row)."""
    from tictactoe import Game  # type: ignore[import-not-found]

    game = Game()
    game.current_state = [list(board[0:3]), list(board[3:6]), list(board[6:9])]
    game.player_turn = "X" if board.count("X") == board.count("O") else "O"
    return game


def _counted(game: Any, name: str, *args: int) -> tuple[Any, int]:
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


def _search_fact(name: str, board: str, args: tuple[int, ...], value: int,
                 moves: set[tuple[int, int]], calls: int) -> Callable[[], None]:
    def fact() -> None:
        game = _lab_game(board)
        found, counted = _counted(game, name, *args)
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


def tic_tac_toe_facts() -> list[Fact]:
    return [
        ("is_end: None while the game goes on",
         lambda: expect(_lab_game("X" + "." * 8).is_end(), None, "is_end() after X at (0, 0)")),
        ("is_end: a win on a diagonal, on the last cell",
         lambda: expect(_lab_game("XOXOXOOXX").is_end(), "X", "is_end() on XOX/OXO/OXX")),
        ("is_end: a full board with no winner is a tie",
         lambda: expect(_lab_game("XOXXOOOXX").is_end(), ".", "is_end() on XOX/XOO/OXX")),
        ("after X at (0, 0), max(): 0 at (1, 1), one is_end call per node (59,705)",
         _search_fact("max", "X" + "." * 8, (), 0, {(1, 1)}, 59_705)),
        ("after X at (0, 0), O at (0, 1), min(): X wins (-1)",
         _search_fact("min", "XO" + "." * 7, (), -1, {(1, 0), (1, 1), (2, 0)}, 8_232)),
    ]


def tic_tac_toe_alphabeta_facts() -> list[Fact]:
    return [
        ("after X at (0, 0), max_alpha_beta(-2, 2): 0 at (1, 1), 2,338 is_end calls",
         _search_fact("max_alpha_beta", "X" + "." * 8, (-2, 2), 0, {(1, 1)}, 2_338)),
    ]


def alphabeta_facts() -> list[Fact]:
    import alphabeta  # type: ignore[import-not-found]
    from gamestate import GameState

    inf = float("inf")
    return [
        ("depth 1 from the empty board: terminal_test is called 5 times",
         _count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 1), 5,
                     "alpha_beta_search(GameState(), 1)")),
        ("depth 2 from the empty board: 13 terminal tests (minimax makes 25)",
         _count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 2), 13,
                     "alpha_beta_search(GameState(), 2)")),
        ("at the cutoff (depth 0) the value is 0",
         lambda: expect((alphabeta.min_value(GameState(), -inf, inf, 0),
                         alphabeta.max_value(GameState(), -inf, inf, 0)), (0, 0),
                        "(min_value, max_value) of the empty board at depth 0")),
        ("searching deep enough, a best move",
         lambda: _best_first(lambda: alphabeta.alpha_beta_search(GameState(), 10),
                             "alpha_beta_search(GameState(), 10)")),
    ]


def iterative_deepening_facts() -> list[Fact]:
    import deepening  # type: ignore[import-not-found]
    from gamestate import GameState

    def action(ticks: int, path: Iterable[tuple[int, int]] = ()) -> tuple[object, int]:
        """get_action after ``path`` with ``ticks``: (its move, its terminal tests)."""
        moves: list[object] = []
        calls = terminal_tests(deepening, lambda left: moves.append(
            deepening.get_action(play(GameState(), path), left)), ticks)
        return moves[0], calls

    def within_the_time() -> None:
        calls = action(250)[1]
        if calls > 250:
            raise Wrong(f"get_action with 250 ticks made {calls} terminal tests")

    return [
        ("with 250 ticks from the empty board, a best move (depth 6 fits)",
         lambda: _best_first(lambda: action(250)[0],
                             "get_action(GameState(), time_left) with 250 ticks")),
        ("with 250 ticks, at most 250 terminal tests", within_the_time),
        # Whatever the threshold (1 to 20), depth 3 finishes and depth 4 does not,
        # and depth 4's first move, (0, 0), is no best move at depth 3.
        ("after (1, 0), with 71 ticks: (1, 1), depth 3's move, not unfinished depth 4's",
         lambda: expect(action(71, [(1, 0)])[0], (1, 1),
                        "get_action after the move (1, 0) with 71 ticks")),
        ("with no time at all, still a legal move",
         lambda: expect(action(0)[0] in START, True,
                        "get_action(GameState(), time_left) with 0 ticks is a legal move")),
    ]


def nim_negamax_facts() -> list[Fact]:
    from negamax import minimax  # type: ignore[import-not-found]
    from nim import LOSING_VALUE, WINNING_VALUE, Nim  # type: ignore[import-not-found]

    def zero(game: Any, player: Any) -> int:
        return 0

    def counted() -> None:
        calls = {"score": 0, "move": 0}

        class Counting(Nim):  # type: ignore[misc]
            def move(self, player: Any, take: int) -> Any:
                calls["move"] += 1
                return super().move(player, take)

        def score(game: Any, player: Any) -> int:
            calls["score"] += 1
            return 0

        minimax(Counting(5), "A", 2, score)
        expect(calls, {"score": 8, "move": 11}, "the calls in minimax(Nim(5), 'A', 2, score)")

    return [
        ("at depth 0: (None, the score)",
         lambda: expect(tuple(minimax(Nim(5), "A", 0, lambda g, p: 7)), (None, 7),
                        "minimax(Nim(5), 'A', 0, score) with a score of 7")),
        ("a finished game: the winner decides",
         lambda: expect(tuple(minimax(Nim(0, last="A"), "A", 1, zero)), (None, WINNING_VALUE),
                        "minimax(Nim(0, last='A'), 'A', 1, score)")),
        ("at 6 coins and depth 6: take 2, a win",
         lambda: expect(tuple(minimax(Nim(6), "A", 6, zero)), (2, WINNING_VALUE),
                        "minimax(Nim(6), 'A', 6, score)")),
        ("at 5 coins and depth 2: score called 8 times, move 11 times", counted),
        ("at 4 coins and depth 8: every move loses",
         lambda: expect(tuple(minimax(Nim(4), "A", 8, zero))[1], LOSING_VALUE,
                        "the rating of minimax(Nim(4), 'A', 8, score)")),
    ]


FACTS = {"gamestate": gamestate_facts, "helpers": helpers_facts,
         "decision": decision_facts, "depth_limit": depth_limit_facts,
         "alphabeta": alphabeta_facts, "iterative_deepening": iterative_deepening_facts,
         "tic_tac_toe": tic_tac_toe_facts, "tic_tac_toe_alphabeta": tic_tac_toe_alphabeta_facts,
         "nim_negamax": nim_negamax_facts}


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
