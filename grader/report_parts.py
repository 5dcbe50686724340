"""A test's message cut into the parts a page shows: text, the board, named values.

The text report prints a test's message as it is, with the position drawn in
it. A page shows the same message in parts a screen reader can read: the
drawing gives way to its board (a picture and a table, with a summary in
words), a drawn game tree becomes a figure (its picture, described by its text
drawing, and a caption saying how to read it), and the lines that name values
("expected: ...", "got: ...") become a list of terms and values. Nothing is
left out: the parts, read in order, say what the message says.
"""

import html
import re
from typing import Any

from grader import pictures

Part = dict[str, Any]  # {"kind": "text", "text"} | {"kind": "values", "values"} | board
# A line that names a value: a short name, a colon, the value ("got:      (0, 1)").
_NAMED = re.compile(r"^(?P<name>[A-Za-z][\w ]{0,24}):\s+(?P<value>\S.*)$")
# How a mark of the games' drawings is read out; any other mark is read as it is
# drawn (X, O). A digit is a player's piece (isolation: 1 and 2).
WORDS = {".": "empty", "#": "closed"}


def word(mark: str) -> str:
    """A board's mark in words."""
    return f"player {mark}" if mark.isdigit() else WORDS.get(mark, mark)


def summary(board: dict[str, Any]) -> str:
    """The board in words, row by row: the table's text alternative."""
    columns, rows = board["columns"], board["rows"]
    said = [f"Board {len(columns)} x {len(rows)}, {board['note']}."]
    for number, row in enumerate(rows, 1):
        name = row["label"] or f"row {number}"
        said.append(f"{name}: {', '.join(map(word, row['cells']))}.")
    return " ".join(said)


def _values(block: list[str]) -> list[Part]:
    """A block of lines: the run of named values around its "expected" line as
    values, the lines before and after it as text."""
    at = next((i for i, line in enumerate(block)
               if (found := _NAMED.match(line)) and found["name"] == "expected"), None)
    if at is None:
        return [{"kind": "text", "text": "\n".join(block)}]
    start = at
    while start > 0 and _NAMED.match(block[start - 1]):
        start -= 1
    end = at + 1
    while end < len(block) and _NAMED.match(block[end]):
        end += 1
    values = [(found["name"], found["value"])
              for found in map(_NAMED.match, block[start:end]) if found]
    before, after = block[:start], block[end:]
    return [*([{"kind": "text", "text": "\n".join(before)}] if before else []),
            {"kind": "values", "values": values},
            *([{"kind": "text", "text": "\n".join(after)}] if after else [])]


def _text(text: str) -> list[Part]:
    """Text as its blocks (split at blank lines), each text or values."""
    blocks = [block.split("\n") for block in re.split(r"\n\s*\n", text.strip("\n"))]
    return [part for block in blocks if any(line.strip() for line in block)
            for part in _values(block)]


def _board(board: dict[str, Any]) -> Part:
    rows = [{"label": row["label"],
             "cells": [{"mark": cell, "word": word(cell)} for cell in row["cells"]]}
            for row in board["rows"]]
    return {"kind": "board", "columns": board["columns"], "rows": rows,
            "note": board["note"], "summary": summary(board), "drawn": board["drawn"]}


def parts(test: dict[str, Any]) -> list[Part]:
    """A report's test (its JSON) as the parts its page shows, in order: its
    board in place of the board's drawing, its tree where the tree's drawing is."""
    message = test["message"]
    board = test.get("board")
    found = [*([{"kind": "piles", **board} if "piles" in board else _board(board)]
               if board else []),
             *([{"kind": "tree", **test["tree"]}] if test.get("tree") else [])]
    shown, rest = [], message
    for part in sorted((p for p in found if p["drawn"] in message),
                       key=lambda p: message.index(p["drawn"])):
        before, there, after = rest.partition(part["drawn"])
        if there:  # not inside a drawing already shown
            shown += [*_text(before), part]
            rest = after
    return [*shown, *_text(rest)]


def _board_html(part: Part, number: int) -> str:
    """A board as a table: column and row headers from the game's labels, each cell
    its mark on screen and its word for a screen reader, the summary as its description."""
    described = f"board-{number}"
    labelled = bool(part["rows"][0]["label"])
    corner = "<td></td>" if labelled else ""
    head = "".join(f'<th scope="col">{html.escape(column)}</th>' for column in part["columns"])
    rows = "".join(
        "<tr>" + (f'<th scope="row">{html.escape(row["label"])}</th>' if labelled else "")
        + "".join(f'<td><span aria-hidden="true">{html.escape(cell["mark"])}</span>'
                  f'<span class="sr-only">{html.escape(cell["word"])}</span></td>'
                  for cell in row["cells"]) + "</tr>"
        for row in part["rows"])
    return (f'<p class="sr-only" id="{described}">{html.escape(part["summary"])}</p>\n'
            f"{pictures.board(part, number, described)}\n"
            f'<table class="board" aria-describedby="{described}">'
            f'<caption>The position: {html.escape(part["note"])}</caption>\n'
            f"<thead><tr>{corner}{head}</tr></thead>\n<tbody>{rows}</tbody></table>")


def _piles_html(part: Part, number: int) -> str:
    """Piles of coins: their picture, described by the sentence that says them."""
    described = f"piles-{number}"
    return (f"{pictures.piles(part, number, described)}\n"
            f'<p class="message" id="{described}">{html.escape(part["drawn"])}</p>')


def _tree_html(part: Part, number: int) -> str:
    """A drawn tree as a figure: its picture, described by its text drawing
    (shown as the message shows it), and a caption saying how to read it."""
    described = f"tree-{number}-text"
    return (f'<figure class="picture">\n{pictures.tree(part, number, described)}\n'
            f'<p class="message" id="{described}">{html.escape(part["drawn"])}</p>\n'
            f"<figcaption>The smallest game tree found, drawn: {html.escape(pictures.LEGEND)}"
            "</figcaption>\n</figure>")


def to_html(shown: list[Part], number: int) -> str:
    """The parts as HTML, every string escaped; ``number`` tells this test's board
    apart from the others' on one page."""
    out = []
    for part in shown:
        if part["kind"] == "board":
            out.append(_board_html(part, number))
        elif part["kind"] == "piles":
            out.append(_piles_html(part, number))
        elif part["kind"] == "tree":
            out.append(_tree_html(part, number))
        elif part["kind"] == "values":
            out.append('<dl class="values">' + "".join(
                f"<dt>{html.escape(name)}</dt><dd>{html.escape(value)}</dd>"
                for name, value in part["values"]) + "</dl>")
        else:
            out.append(f'<p class="message">{html.escape(part["text"])}</p>')
    return "\n".join(out)

