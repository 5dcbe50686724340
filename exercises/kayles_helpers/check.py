"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_kayles_helpers.py, beside selfcheck.py, which checks them on your code:

    python check_kayles_helpers.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import ALL_DOWN, expect, expect_truth, play, run  # noqa: E402


def facts() -> list:
    from kayles import GameState
    from minimax_helpers import (
        max_value,
        min_value,
        terminal_test,
    )

    return [
        ("terminal_test: the full row is not terminal",
         lambda: expect_truth(terminal_test(GameState()), False, "terminal_test(GameState())")),
        ("terminal_test: with no pin standing, the player to move is stuck",
         lambda: expect_truth(terminal_test(play(GameState(), ALL_DOWN)), True,
                              f"terminal_test after the moves {ALL_DOWN}")),
        ("min_value: a terminal state is worth +1, max_value: -1",
         lambda: expect((min_value(play(GameState(), ALL_DOWN)),
                         max_value(play(GameState(), ALL_DOWN))), (1, -1),
                        "(min_value, max_value) of it")),
        ("min_value: the full row of six pins is worth -1",
         lambda: expect(min_value(GameState()), -1, "min_value(GameState())")),
    ]


if __name__ == "__main__":
    run(facts)
