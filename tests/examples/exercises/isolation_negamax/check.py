"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_isolation_negamax.py, beside selfcheck.py, which checks them on
your code:

    python check_isolation_negamax.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import BOXED_IN, count_fact, expect, play, run  # noqa: E402


def facts() -> list:
    import negamax
    from gamestate import GameState

    return [
        ("at the cutoff (depth 0) the empty board is worth 0",
         lambda: expect(negamax.negamax(GameState(), 0), 0, "negamax(GameState(), 0)")),
        ("a terminal state is tested first: where the player to move is stuck, -1",
         lambda: expect(negamax.negamax(play(GameState(), BOXED_IN), 0), -1,
                        f"negamax at depth 0 after the moves {BOXED_IN}")),
        ("depth 1 from the empty board: terminal_test is called 6 times",
         count_fact(negamax, lambda _: negamax.negamax(GameState(), 1), 6,
                    "negamax(GameState(), 1)")),
        ("searched to the end, the empty board is a win for the player to move: +1",
         lambda: expect(negamax.negamax(GameState(), 10), 1, "negamax(GameState(), 10)")),
    ]


if __name__ == "__main__":
    run(facts)
