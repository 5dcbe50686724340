"""Tic-tac-toe, the trusted rules: what the grader's checks and stand-ins use.

A position is the board as a string of nine marks, row by row (``'.'``
empty, ``'X'``, ``'O'``); X moves first. This file imports nothing: the
grader's stand-ins run it in the student's process as it is.
"""

EMPTY = "."
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
         (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
         (0, 4, 8), (2, 4, 6))  # the diagonals
START = EMPTY * 9
CELLS = tuple((row, col) for row in range(3) for col in range(3))  # the lab's order
VALUES = {"O": 1, "X": -1, EMPTY: 0}  # what is_end's answer is worth, as the lab scores it (for O)


def winner(board: str, lines: tuple[tuple[int, int, int], ...] = LINES) -> str | None:
    """'X' or 'O' with three in a row on ``lines``, else None."""
    for a, b, c in lines:
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return None


def end(board: str) -> str | None:
    """What the lab's ``is_end`` answers: the winner, '.' for a full board
    without one, None while the game goes on."""
    won = winner(board)
    if won:
        return won
    return None if EMPTY in board else EMPTY


def place(board: str, row: int, col: int, mark: str) -> str:
    """``board`` with ``mark`` at (row, col)."""
    cell = 3 * row + col
    return board[:cell] + mark + board[cell + 1:]


def moves(board: str) -> list[tuple[int, int]]:
    """The empty cells, (row, col), row by row: the order the lab tries them."""
    return [(row, col) for row, col in CELLS if board[3 * row + col] == EMPTY]


def label(current_state: list[list[str]]) -> str:
    """The lab's ``current_state`` (three lists of three marks) as a board string."""
    first, second, third = current_state
    return "".join(first) + "".join(second) + "".join(third)


def rows(board: str) -> list[list[str]]:
    """A board string as the lab's ``current_state``: fresh lists."""
    return [list(board[0:3]), list(board[3:6]), list(board[6:9])]
