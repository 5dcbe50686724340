"""Iterative deepening on a virtual clock: the budgets, the reference, the models.

The student's ``get_action(gameState, time_left)`` is handed a clock that
runs down by one tick at each terminal_test call (the worker's kit makes
it), so a budget of B ticks always gives the same search. The student picks
``TIMER_THRESHOLD`` from 1 to 20 ticks and may check it before or after a
node's terminal test; the budgets are chosen so that every such choice
finishes the same depths: depth d and never depth d + 1 (whose search needs
more than ``MOST_THRESHOLD + 2`` ticks), or not even depth 1. The counts of
each depth come from the reference alpha-beta, exactly, on the exercise's
game (mini-isolation unless it names another of the lesson's kind).
"""

from dataclasses import dataclass
from itertools import accumulate

from grader.contracts.protocol import Tested
from grader.games import Game, State, isolation, tree
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.known import known

MOST_THRESHOLD = 20
THRESHOLDS = (1, 10, MOST_THRESHOLD)  # the thresholds a model is tried with
DEPTHS = range(1, 7)
COARSE_TICK = MOST_THRESHOLD + 1  # a terminal test's cost on a clock no threshold can hide
SLACK = 2 * MOST_THRESHOLD + 50  # calls past depth 7 at which a search is stopped
ENDLESS = 10_000  # where a model is stopped on a drawn tree, a few dozen nodes
WHOLE_GAME = 64  # a depth past the end of every game the suites play


@dataclass(frozen=True)
class DeepFlaws:
    start: int = 1  # the first depth searched
    step: int = 1  # from one depth to the next
    clock_in_search: bool = True  # False: the clock is read between depths only ...
    clock_between: bool = True  # ... or, False too, never: the depths go on for good
    depth_cutoff: bool = True  # False: each depth's search goes to the end of the game
    clock_after_terminal: bool = False  # read after a node's terminal test, on live nodes only
    keeps_unfinished: bool = False  # the unfinished depth's best move so far is returned
    fallback: bool = True  # False: None when no depth finished
    catches: bool = True  # False: the timeout escapes get_action, which returns nothing


class OutOfTime(Exception):
    pass


class Endless(Exception):
    """The search went on far past the clock: the student's is stopped there."""


class Clocked(AlphaBeta):
    """The reference alpha-beta, raising ``OutOfTime`` at a node entered with
    less than ``threshold`` ticks left (when it reads the clock in the search:
    before the node's terminal test, or after it on a node that goes on), and
    ``Endless`` past ``most`` terminal tests."""

    def __init__(self, clock: "Clock", threshold: int, flaws: "DeepFlaws", most: int,
                 game: Game) -> None:
        super().__init__(None, game)
        self.clock, self.threshold, self.deep, self.most = clock, threshold, flaws, most

    def left(self) -> int:
        return self.clock.budget - self.clock.tick * self.calls.total()

    def terminal_test(self, state: State, flaws: object = None) -> bool:
        early = self.deep.clock_in_search and not self.deep.clock_after_terminal
        if early and self.left() < self.threshold:
            raise OutOfTime
        over = super().terminal_test(state)
        if self.calls.total() > self.most:
            raise Endless
        if self.deep.clock_after_terminal and not over and self.left() < self.threshold:
            raise OutOfTime
        return over


@dataclass
class Deepened:
    move: object
    calls: Tested
    finished: list[int]  # the depths searched to the end, in order
    cut: int | None  # the depth the clock stopped, if one was
    endless: bool = False  # stopped for going on far past the clock
    escaped: bool = False  # the timeout was not caught: no move, the search as it went


@dataclass(frozen=True)
class Clock:
    budget: int
    tick: int = 1  # spent by each terminal test

    def most_tests(self) -> int:
        """The terminal tests a search may make: those made with time left,
        and one at least (a search that reads the clock just after each
        terminal test makes one when it starts with no time left)."""
        return max(-(-self.budget // self.tick), 1)

    def sent(self) -> dict[str, object]:
        """As the worker's kit makes it a ``time_left`` (``standins.isolation``)."""
        return {"trusted": {"clock": self.budget, "tick": self.tick}}


def deepen(state: State, budget: int | Clock, threshold: int = 10, flaws: DeepFlaws = DeepFlaws(),
           game: Game = isolation) -> Deepened:
    """``get_action(state, time_left)`` with ``budget`` ticks, as ``flaws`` make it."""
    clock = budget if isinstance(budget, Clock) else Clock(budget)
    most = ENDLESS if game is tree else most_calls(state, game)
    search = Clocked(clock, threshold, flaws, most, game)
    legal = game.legal_moves(state)
    found = Deepened(legal[0] if flaws.fallback and legal else None, search.calls, [], None)
    depth = flaws.start
    while flaws.clock_in_search or not flaws.clock_between or search.left() >= threshold:
        searched = depth if flaws.depth_cutoff else WHOLE_GAME  # the depth its calls show
        try:
            found.move = search.choose(state, searched)
        except OutOfTime:
            if flaws.keeps_unfinished and search.so_far is not None:
                found.move = search.so_far
            found.cut = searched
            if not flaws.catches:
                found.move, found.escaped = None, True
            break
        except Endless:
            found.endless = True
            break
        found.finished.append(searched)
        depth += flaws.step
    return found


# (game, the position's key, depth) -> the reference's terminal tests
_DEPTH_CALLS: dict[tuple[object, object, int], Tested] = {}


def depth_calls(state: State, depth: int, game: Game = isolation) -> Tested:
    """The terminal tests of the reference alpha-beta at ``depth``."""
    at = (game, known(game).key(state), depth)  # the suite's positions: their keys kept
    if at not in _DEPTH_CALLS:
        _DEPTH_CALLS[at] = AlphaBeta(None, game).decision(state, depth)[0]
    return _DEPTH_CALLS[at]


def searched_as(state: State, calls: Tested, finished: list[int], cut: int | None,
                game: Game = isolation) -> bool:
    """Whether ``calls`` are those of the depths ``finished``, each in full, and
    then of part of the search at depth ``cut``."""
    done = Tested()
    for depth in finished:
        done.update(depth_calls(state, depth, game))
    rest = calls - done
    return not (done - calls) and not (rest - (depth_calls(state, cut, game) if cut is not None
                                              else Tested()))


def counts(state: State, game: Game = isolation) -> tuple[int, ...]:
    """The number of terminal tests of the reference alpha-beta at depths 1 to 7."""
    return tuple(depth_calls(state, depth, game).total() for depth in range(1, 8))


def budgets(state: State, game: Game = isolation) -> list[tuple[int, int]]:
    """(budget, the deepest depth it finishes: 0 for none) for ``state``."""
    each = counts(state, game)
    upto = list(accumulate(each))
    found = [(0, 0)] + ([(each[0] - 1, 0)] if each[0] > 1 else [])
    for depth in DEPTHS:
        if each[depth] >= MOST_THRESHOLD + 3:  # depth + 1 can't finish
            found.append((upto[depth - 1] + MOST_THRESHOLD + 1, depth))
    return found


def clock_past(each: list[int] | tuple[int, ...], finished: int) -> Clock | None:
    """A clock whose every terminal test spends more ticks than any threshold,
    given the reference's terminal tests at each depth: any threshold, read
    before each test, finishes depths 1 to ``finished`` and makes one test of
    the next, so every correct search makes the same tests, and one that reads
    the clock and goes on makes more. None where the next depth makes a single
    test (it would finish)."""
    if each[finished] < 2:
        return None
    return Clock(COARSE_TICK * sum(each[:finished]) + MOST_THRESHOLD, COARSE_TICK)


def clocks(state: State, game: Game = isolation, coarse: bool = False) -> list[tuple[Clock, int]]:
    """(clock, the deepest depth it finishes) for ``state``: a tick a test on
    each of ``budgets``, or (``coarse``) the one ``clock_past`` depth 1."""
    if not coarse:
        return [(Clock(budget), depth) for budget, depth in budgets(state, game)]
    clock = clock_past(counts(state, game), 1)
    return [(clock, 1)] if clock else []


def most_calls(state: State, game: Game = isolation) -> int:
    """Where a search that ignores the clock is stopped."""
    return sum(counts(state, game)) + SLACK


MODELS = [
    ("unfinished_depth_move", DeepFlaws(keeps_unfinished=True)),
    ("depths_skipped", DeepFlaws(start=0)),
    ("depths_skipped", DeepFlaws(start=2)),
    ("depths_skipped", DeepFlaws(step=2)),
    ("clock_ignored_in_search", DeepFlaws(clock_in_search=False)),
    ("clock_read_after_terminal_test", DeepFlaws(clock_after_terminal=True)),
    ("clock_never_read", DeepFlaws(clock_in_search=False, clock_between=False)),
    ("depth_cutoff_missing", DeepFlaws(depth_cutoff=False)),
    ("no_fallback_move", DeepFlaws(fallback=False)),
    ("timeout_not_caught", DeepFlaws(catches=False)),
]
