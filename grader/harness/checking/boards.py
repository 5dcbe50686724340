"""A position's drawing read back as a grid: the board a report's page shows as a table.

The rows are read off the game's own drawing, here in one place, rather than
asked of each game through a new method on its interface: every check already
hands ``verdict`` the game's ``draw``, so no check and no game changes, and the
table can never show another position than the text beside it. The drawings
of the grid games share one layout, which is what is read:

- a first line of column labels, after an optional word naming them
  (``x=0 x=1 x=2``; ``col 0  1  2``; ``pin  0 1 2``);
- one line per row: its label, if any, then one mark per column (``y=0 . 1 #``);
- a last line saying whose move it is (``player 1 to move``).

A drawing of another shape (Nim's sentence, a node of a drawn tree) is no grid:
``grid`` gives None. Nim's piles are given by its checks instead (``piles``):
each pile's name and coins, beside the sentence that says them.
"""

from typing import Any

Board = dict[str, Any]  # the event's "board": columns, rows (label, cells), note, drawn


def grid(drawing: str) -> Board | None:
    """The board ``drawing`` shows, or None when it is not a grid of one-character marks."""
    lines = [line for line in drawing.splitlines() if line.strip()]
    if len(lines) < 3:
        return None
    header = lines[0].split()
    named = 1 if header and header[0].isalpha() and len(header) > 1 else 0
    columns = [f"{header[0]} {label}" if named else label for label in header[named:]]
    if not columns:
        return None
    rows = []
    for line in lines[1:-1]:
        tokens = line.split()
        label, cells = tokens[:-len(columns)], tokens[-len(columns):]
        if len(tokens) < len(columns) or any(len(cell) != 1 for cell in cells):
            return None
        rows.append({"label": " ".join(label), "cells": cells})
    return {"columns": columns, "rows": rows, "note": lines[-1].strip(), "drawn": drawing}


def piles(coins: dict[str, int], note: str, drawing: str) -> Board:
    """Piles of coins (name -> how many), as the event's "board" (``piles``)."""
    return {"piles": [{"label": label, "coins": count} for label, count in coins.items()],
            "note": note, "drawn": drawing}
