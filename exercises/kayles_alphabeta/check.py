"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_kayles_alphabeta.py, beside selfcheck.py, which checks them on your code:

    python check_kayles_alphabeta.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import KAYLES_BEST_FIRST, best_first, count_fact, expect, run  # noqa: E402


def facts() -> list:
    import alphabeta
    from kayles import GameState

    inf = float("inf")
    return [
        ("depth 1 from the full row: terminal_test is called 11 times",
         count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 1), 11,
                    "alpha_beta_search(GameState(), 1)")),
        ("depth 2 from the full row: 30 terminal tests (minimax makes 93)",
         count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 2), 30,
                    "alpha_beta_search(GameState(), 2)")),
        ("depth 3 from the full row: 100 terminal tests (minimax makes 471)",
         count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 3), 100,
                    "alpha_beta_search(GameState(), 3)")),
        ("at the cutoff (depth 0) the value is 0",
         lambda: expect((alphabeta.min_value(GameState(), -inf, inf, 0),
                         alphabeta.max_value(GameState(), -inf, inf, 0)), (0, 0),
                        "(min_value, max_value) of the full row at depth 0")),
        ("searching deep enough, a best move",
         lambda: best_first(lambda: alphabeta.alpha_beta_search(GameState(), 10),
                            "alpha_beta_search(GameState(), 10)", KAYLES_BEST_FIRST)),
    ]


if __name__ == "__main__":
    run(facts)
