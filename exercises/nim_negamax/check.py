"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_nim_negamax.py, beside selfcheck.py, which checks them on your code:

    python check_nim_negamax.py
"""

import sys
from pathlib import Path
from typing import Any

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import expect, run  # noqa: E402


def facts() -> list:
    from negamax import minimax
    from nim import LOSING_VALUE, WINNING_VALUE, Nim

    def zero(game: Any, player: Any) -> int:
        return 0

    def counted() -> None:
        calls = {"score": 0, "move": 0}

        class Counting(Nim):
            def move(self, player: Any, take: int) -> Any:
                calls["move"] += 1
                return super().move(player, take)

        def score(game: Any, player: Any) -> int:
            calls["score"] += 1
            return 0

        minimax(Counting(5), "A", 2, score)
        expect(calls, {"score": 8, "move": 11}, "the calls in minimax(Nim(5), 'A', 2, score)")

    return [
        ("at depth 0: (None, the score)",
         lambda: expect(tuple(minimax(Nim(5), "A", 0, lambda g, p: 7)), (None, 7),
                        "minimax(Nim(5), 'A', 0, score) with a score of 7")),
        ("a finished game: the winner decides",
         lambda: expect(tuple(minimax(Nim(0, last="A"), "A", 1, zero)), (None, WINNING_VALUE),
                        "minimax(Nim(0, last='A'), 'A', 1, score)")),
        ("at 6 coins and depth 6: take 2, a win",
         lambda: expect(tuple(minimax(Nim(6), "A", 6, zero)), (2, WINNING_VALUE),
                        "minimax(Nim(6), 'A', 6, score)")),
        ("at 5 coins and depth 2: score called 8 times, move 11 times", counted),
        ("at 4 coins and depth 8: every move loses",
         lambda: expect(tuple(minimax(Nim(4), "A", 8, zero))[1], LOSING_VALUE,
                        "the rating of minimax(Nim(4), 'A', 8, score)")),
    ]


if __name__ == "__main__":
    run(facts)
