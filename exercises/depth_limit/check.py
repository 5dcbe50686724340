"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_depth_limit.py, beside selfcheck.py, which checks them on your code:

    python check_depth_limit.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import BOXED_IN, best_first, count_fact, expect, play, run  # noqa: E402


def facts() -> list:
    import minimax
    from gamestate import GameState

    return [
        ("depth 1 from the empty board: terminal_test is called 5 times",
         count_fact(minimax, lambda _: minimax.minimax_decision(GameState(), 1), 5,
                     "minimax_decision(GameState(), 1)")),
        ("at the cutoff (depth 0) the value is 0",
         lambda: expect((minimax.min_value(GameState(), 0), minimax.max_value(GameState(), 0)),
                        (0, 0), "(min_value, max_value) of the empty board at depth 0")),
        ("a terminal state is tested first, before the cutoff",
         lambda: expect(minimax.min_value(play(GameState(), BOXED_IN), 0), 1,
                        f"min_value at depth 0 after the moves {BOXED_IN}")),
        ("searching deep enough, a best move",
         lambda: best_first(lambda: minimax.minimax_decision(GameState(), 10),
                             "minimax_decision(GameState(), 10)")),
    ]


if __name__ == "__main__":
    run(facts)
