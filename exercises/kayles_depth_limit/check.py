"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_kayles_depth_limit.py, beside selfcheck.py, which checks them on your code:

    python check_kayles_depth_limit.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import (  # noqa: E402
    ALL_DOWN,
    KAYLES_BEST_FIRST,
    best_first,
    count_fact,
    expect,
    play,
    run,
)


def facts() -> list:
    import minimax
    from kayles import GameState

    return [
        ("depth 1 from the full row: terminal_test is called 11 times",
         count_fact(minimax, lambda _: minimax.minimax_decision(GameState(), 1), 11,
                    "minimax_decision(GameState(), 1)")),
        ("depth 2 from the full row: 93 terminal tests",
         count_fact(minimax, lambda _: minimax.minimax_decision(GameState(), 2), 93,
                    "minimax_decision(GameState(), 2)")),
        ("at the cutoff (depth 0) the value is 0",
         lambda: expect((minimax.min_value(GameState(), 0), minimax.max_value(GameState(), 0)),
                        (0, 0), "(min_value, max_value) of the full row at depth 0")),
        ("a terminal state is tested first, before the cutoff",
         lambda: expect(minimax.min_value(play(GameState(), ALL_DOWN), 0), 1,
                        f"min_value at depth 0 after the moves {ALL_DOWN}")),
        ("searching deep enough, a best move",
         lambda: best_first(lambda: minimax.minimax_decision(GameState(), 10),
                            "minimax_decision(GameState(), 10)", KAYLES_BEST_FIRST)),
    ]


if __name__ == "__main__":
    run(facts)
