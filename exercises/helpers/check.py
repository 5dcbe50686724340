"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_helpers.py, beside selfcheck.py, which checks them on your code:

    python check_helpers.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import BOXED_IN, expect, expect_truth, play, run  # noqa: E402


def facts() -> list:
    from gamestate import GameState
    from minimax_helpers import (
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


if __name__ == "__main__":
    run(facts)
