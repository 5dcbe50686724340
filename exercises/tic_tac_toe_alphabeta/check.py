"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_tic_tac_toe_alphabeta.py, beside selfcheck.py, which checks them on your code:

    python check_tic_tac_toe_alphabeta.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import run, search_fact  # noqa: E402


def facts() -> list:
    return [
        ("after X at (0, 0), max_alpha_beta(-2, 2): 0 at (1, 1), 2,338 is_end calls",
         search_fact("max_alpha_beta", "X" + "." * 8, (-2, 2), 0, {(1, 1)}, 2_338)),
    ]


if __name__ == "__main__":
    run(facts)
