"""The self-check's facts of this exercise: `minimax-grader stub` hands this
file out as check_gamestate.py, beside selfcheck.py, which checks them on your code:

    python check_gamestate.py
"""

import sys
from pathlib import Path

# Your files, and the self-check's own module, beside this file (as run with -I too).
sys.path.insert(0, str(Path(__file__).resolve().parent))

from selfcheck import START, Wrong, expect, moves, play, run  # noqa: E402


def facts() -> list:
    from gamestate import GameState

    def forecast_is_new() -> None:
        start = GameState()
        child = start.forecast_move((0, 0))
        if child is start or child is None:
            raise Wrong(f"forecast_move((0, 0)) returned {child!r}, where a new GameState "
                        "is due")
        expect(moves(start), START, "the moves of the state it was called on, after it")

    return [
        ("at the start, every open cell is a move",
         lambda: expect(moves(GameState()), START, "GameState().get_legal_moves()")),
        ("forecast_move returns a new state and leaves its own unchanged", forecast_is_new),
        ("after (0, 0), player 2 may take any open cell",
         lambda: expect(moves(play(GameState(), [(0, 0)])), START[1:], "the moves")),
        ("after (0, 0), (0, 1), player 1 slides like a queen, through open cells",
         lambda: expect(moves(play(GameState(), [(0, 0), (0, 1)])), [(1, 0), (1, 1), (2, 0)],
                        "the moves")),
    ]


if __name__ == "__main__":
    run(facts)
