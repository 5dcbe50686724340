"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_kayles_iterative_deepening.py, beside selfcheck.py, which
checks them on your code:

    python check_kayles_iterative_deepening.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import (  # noqa: E402
    KAYLES_BEST_FIRST,
    best_first,
    expect,
    run,
    timed_action,
    within_the_time,
)


def facts() -> list:
    import deepening
    from kayles import GameState

    def action(ticks: int, *path: tuple[int, int]) -> tuple[object, int]:
        return timed_action(deepening, GameState, ticks, path)

    return [
        ("with 2000 ticks from the full row, a best move (the whole game fits)",
         lambda: best_first(lambda: action(2000)[0],
                            "get_action(GameState(), time_left) with 2000 ticks",
                            KAYLES_BEST_FIRST)),
        ("with 2000 ticks, at most 2000 terminal tests",
         within_the_time(deepening, GameState, 2000)),
        # Whatever the threshold (1 to 20), depth 3 finishes and depth 4 does not,
        # and depth 4's first move, (2, 2), is no best move at depth 3.
        ("after (0, 1), with 106 ticks: (3, 4), depth 3's move, not unfinished depth 4's",
         lambda: expect(action(106, (0, 1))[0], (3, 4),
                        "get_action after the move (0, 1) with 106 ticks")),
        ("with no time at all, still a legal move",
         lambda: expect(action(0)[0] in GameState().get_legal_moves(), True,
                        "get_action(GameState(), time_left) with 0 ticks is a legal move")),
    ]


if __name__ == "__main__":
    run(facts)
