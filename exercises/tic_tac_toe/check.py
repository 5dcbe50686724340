"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_tic_tac_toe.py, beside selfcheck.py, which checks them on your code:

    python check_tic_tac_toe.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import expect, lab_game, run, search_fact  # noqa: E402


def facts() -> list:
    return [
        ("is_end: None while the game goes on",
         lambda: expect(lab_game("X" + "." * 8).is_end(), None, "is_end() after X at (0, 0)")),
        ("is_end: a win on a diagonal, on the last cell",
         lambda: expect(lab_game("XOXOXOOXX").is_end(), "X", "is_end() on XOX/OXO/OXX")),
        ("is_end: a full board with no winner is a tie",
         lambda: expect(lab_game("XOXXOOOXX").is_end(), ".", "is_end() on XOX/XOO/OXX")),
        ("after X at (0, 0), max(): 0 at (1, 1), one is_end call per node (59,705)",
         search_fact("max", "X" + "." * 8, (), 0, {(1, 1)}, 59_705)),
        ("after X at (0, 0), O at (0, 1), min(): X wins (-1)",
         search_fact("min", "XO" + "." * 7, (), -1, {(1, 0), (1, 1), (2, 0)}, 8_232)),
    ]


if __name__ == "__main__":
    run(facts)
