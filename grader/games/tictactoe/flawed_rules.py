"""Models of the known mistakes in a student's ``is_end``.

Each answers as a flawed ``is_end`` would on a board string; a mistake is
named only when its model gives the student's answers.
"""

from dataclasses import dataclass

from grader.games.tictactoe.rules import EMPTY, LINES, winner

_NAMES = ("the top row", "the middle row", "the bottom row", "the left column",
          "the middle column", "the right column",
          "the diagonal from the top left", "the diagonal from the top right")


@dataclass(frozen=True)
class EndModel:
    mistake: str
    says: str
    lines: tuple[tuple[int, int, int], ...] = LINES
    tie_first: bool = False  # a full board is a tie before the wins are looked at

    def end(self, board: str) -> str | None:
        if self.tie_first and EMPTY not in board:
            return EMPTY
        won = winner(board, self.lines)
        if won:
            return won
        return None if EMPTY in board else EMPTY


def _without(index: int) -> tuple[tuple[int, int, int], ...]:
    return LINES[:index] + LINES[index + 1:]


_KINDS = {0: "row", 1: "row", 2: "row", 3: "column", 4: "column", 5: "column",
          6: "diagonal", 7: "diagonal"}

END_MODELS = (
    *(EndModel(f"is_end_missing_{_KINDS[i]}", f"your is_end never looks at {_NAMES[i]}",
               _without(i)) for i in range(8)),
    EndModel("tie_before_win", "your is_end calls a full board a tie before it looks for "
             "a win made on the last cell", tie_first=True),
)
