"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_iterative_deepening.py, beside selfcheck.py, which checks them on your code:

    python check_iterative_deepening.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import (  # noqa: E402
    START,
    best_first,
    expect,
    run,
    timed_action,
    within_the_time,
)


def facts() -> list:
    import deepening
    from gamestate import GameState

    def action(ticks: int, *path: tuple[int, int]) -> tuple[object, int]:
        return timed_action(deepening, GameState, ticks, path)

    return [
        ("with 250 ticks from the empty board, a best move (depth 6 fits)",
         lambda: best_first(lambda: action(250)[0],
                             "get_action(GameState(), time_left) with 250 ticks")),
        ("with 250 ticks, at most 250 terminal tests",
         within_the_time(deepening, GameState, 250)),
        # Whatever the threshold (1 to 20), depth 3 finishes and depth 4 does not,
        # and depth 4's first move, (0, 0), is no best move at depth 3.
        ("after (1, 0), with 71 ticks: (1, 1), depth 3's move, not unfinished depth 4's",
         lambda: expect(action(71, (1, 0))[0], (1, 1),
                        "get_action after the move (1, 0) with 71 ticks")),
        ("with no time at all, still a legal move",
         lambda: expect(action(0)[0] in START, True,
                        "get_action(GameState(), time_left) with 0 ticks is a legal move")),
    ]


if __name__ == "__main__":
    run(facts)
