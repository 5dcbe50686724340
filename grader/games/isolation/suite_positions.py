"""The positions the suites ask about.

On the lesson's 3 x 2 board the suites ask about every reachable position.
The larger 4 x 3 board has 16,269, too many for a student's plain minimax, so
the suites use a few chosen ones, picked (and checked by the grader's tests)
so that a wrong answer shows: in each, the best moves are fewer than the
legal ones, and for the decision some best moves lie outside the 3 x 2 corner
that code written for the small board would look at.
"""

from collections.abc import Iterable

from grader.games.isolation import rules as isolation

LESSON_POSITIONS = isolation.reachable(isolation.new_game())

# Two moves in: a full search takes a fraction of a second from here.
LARGE_DECISION_PATHS = (
    ((0, 0), (0, 2)), ((0, 2), (0, 1)), ((2, 1), (1, 0)), ((3, 0), (0, 2)),
    ((0, 1), (0, 0)), ((1, 2), (0, 1)), ((2, 0), (3, 0)), ((2, 2), (0, 1)), ((3, 0), (1, 0)),
)
# Three or four moves in: the best moves at depths 2 and 3 are a strict subset.
LARGE_DEPTH_PATHS = (
    (), ((0, 0), (0, 1), (2, 0)), ((2, 1), (1, 2), (2, 0)), ((0, 0), (2, 1), (0, 1), (1, 2)),
    ((0, 1), (3, 0), (1, 2), (3, 1)), ((1, 0), (2, 2), (0, 1), (2, 0)),
    ((2, 0), (1, 0), (2, 2), (2, 1)), ((2, 1), (2, 0), (1, 2), (3, 1)),
    ((3, 0), (0, 2), (2, 0), (2, 2)),
)


def nonterminal(positions: Iterable[tuple[isolation.GameState, tuple[tuple[int, int], ...]]]
                ) -> list[tuple[isolation.GameState, tuple[tuple[int, int], ...]]]:
    """A decision need not handle a finished game."""
    return [(state, path) for state, path in positions if state.get_legal_moves()]


def large(paths: Iterable[tuple[tuple[int, int], ...]]
          ) -> list[tuple[isolation.GameState, tuple[tuple[int, int], ...]]]:
    root = isolation.new_game(isolation.LARGE_BOARD)
    return [(root.replay(path), path) for path in paths]
