"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_decision.py, beside selfcheck.py, which checks them on your code:

    python check_decision.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import ONE_LEFT, best_first, expect, play, run  # noqa: E402


def facts() -> list:
    from gamestate import GameState
    from minimax import minimax_decision

    return [
        ("from the empty board, a best move",
         lambda: best_first(lambda: minimax_decision(GameState()),
                             "minimax_decision(GameState())")),
        ("with one move left, that move",
         lambda: expect(minimax_decision(play(GameState(), ONE_LEFT)), (1, 1),
                        f"minimax_decision after the moves {ONE_LEFT}")),
    ]


if __name__ == "__main__":
    run(facts)
