"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_kayles_decision.py, beside selfcheck.py, which checks them on your code:

    python check_kayles_decision.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import KAYLES_BEST_FIRST, TWO_LEFT, best_first, expect, play, run  # noqa: E402


def facts() -> list:
    from kayles import GameState
    from minimax import minimax_decision

    return [
        ("from the full row, a best move",
         lambda: best_first(lambda: minimax_decision(GameState()),
                            "minimax_decision(GameState())", KAYLES_BEST_FIRST)),
        ("with two pins side by side left, knock down both",
         lambda: expect(minimax_decision(play(GameState(), TWO_LEFT)), (4, 5),
                        f"minimax_decision after the moves {TWO_LEFT}")),
    ]


if __name__ == "__main__":
    run(facts)
