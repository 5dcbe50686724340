"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_alphabeta.py, beside selfcheck.py, which checks them on your code:

    python check_alphabeta.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import best_first, count_fact, expect, run  # noqa: E402


def facts() -> list:
    import alphabeta
    from gamestate import GameState

    inf = float("inf")
    return [
        ("depth 1 from the empty board: terminal_test is called 5 times",
         count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 1), 5,
                     "alpha_beta_search(GameState(), 1)")),
        ("depth 2 from the empty board: 13 terminal tests (minimax makes 25)",
         count_fact(alphabeta, lambda _: alphabeta.alpha_beta_search(GameState(), 2), 13,
                     "alpha_beta_search(GameState(), 2)")),
        ("at the cutoff (depth 0) the value is 0",
         lambda: expect((alphabeta.min_value(GameState(), -inf, inf, 0),
                         alphabeta.max_value(GameState(), -inf, inf, 0)), (0, 0),
                        "(min_value, max_value) of the empty board at depth 0")),
        ("searching deep enough, a best move",
         lambda: best_first(lambda: alphabeta.alpha_beta_search(GameState(), 10),
                             "alpha_beta_search(GameState(), 10)")),
    ]


if __name__ == "__main__":
    run(facts)
