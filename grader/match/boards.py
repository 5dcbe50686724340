"""A position drawn as an SVG picture, for a game's replay: the cells (closed
ones shaded), where each player stands, and the last move marked. The picture
is an image with its words (``said``) for those who don't see it; a page gives
the board as a table or text beside it. Everything in it is the grader's own
(numbers and the words given, escaped), so a page can put it in as it is.
"""

import html

from grader.games.knights.rules import QueenBoard

CELL = 36  # pixels a cell
EDGE = 22  # room for the x and y labels
COLOURS = {"open": "#ffffff", "closed": "#8a8a8a", "line": "#444444", "last": "#c2410c",
           "players": ("#1d4ed8", "#b91c1c")}


def svg(state: QueenBoard, last: tuple[int, int] | None, said: str) -> str:
    """``state`` as an SVG image whose accessible name is ``said``; ``last``: the
    cell of the last move, outlined."""
    width, height = state.width * CELL + EDGE, state.height * CELL + EDGE
    here = {state.location(player): player for player in (0, 1)}
    closed = {(x, y) for x in range(state.width) for y in range(state.height)} \
        - set(state.open_cells())
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}" class="board-picture">'
             f"<title>{html.escape(said)}</title>"]
    for x in range(state.width):
        parts.append(_label(EDGE + x * CELL + CELL / 2, EDGE / 2, str(x)))
    for y in range(state.height):
        parts.append(_label(EDGE / 2, EDGE + y * CELL + CELL / 2, str(y)))
    for x in range(state.width):
        for y in range(state.height):
            fill = COLOURS["closed" if (x, y) in closed and (x, y) not in here else "open"]
            parts.append(f'<rect x="{EDGE + x * CELL}" y="{EDGE + y * CELL}" width="{CELL}" '
                         f'height="{CELL}" fill="{fill}" stroke="{COLOURS["line"]}"/>')
    for (x, y), player in ((cell, who) for cell, who in here.items() if cell is not None):
        cx, cy = EDGE + x * CELL + CELL / 2, EDGE + y * CELL + CELL / 2
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.36}" '
                     f'fill="{COLOURS["players"][player]}"/>')
        parts.append(f'<text x="{cx}" y="{cy}" text-anchor="middle" dominant-baseline="central" '
                     f'font-size="16" font-weight="bold" fill="#ffffff">{player + 1}</text>')
    if last is not None:
        x, y = last
        parts.append(f'<rect x="{EDGE + x * CELL + 2}" y="{EDGE + y * CELL + 2}" '
                     f'width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                     f'stroke="{COLOURS["last"]}" stroke-width="4"/>')
    parts.append("</svg>")
    return "".join(parts)


def _label(x: float, y: float, text: str) -> str:
    return (f'<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central" '
            f'font-size="12" fill="#222222">{text}</text>')


def words(state: QueenBoard, last: tuple[int, int] | None) -> str:
    """The picture in words: where each player stands, the cells closed, the last move."""
    stands = "; ".join(f"player {player + 1} at {state.location(player)}"
                       if state.location(player) else f"player {player + 1} not placed yet"
                       for player in (0, 1))
    closed = state.width * state.height - len(state.open_cells())
    marked = f"; the last move, to {last}, outlined" if last else ""
    return f"{stands}; {closed} cells closed{marked}"
