"""A report's position and drawn game tree as pictures (SVG), for its pages.

Both come from the report's own data (a test's ``board`` and ``tree``), never
from its text, and every string in them is escaped: a page that shows them
holds no markup a report could have put there. Each picture is an image with
a title, described by its text alternative on the same page (the board in
words, the tree's text drawing), and marks what it shows by shape, outline,
pattern and words, never by colour alone. The service's report page and the
batch's pages both draw them here (through ``grader.report_parts``).
"""

from html import escape
from typing import Any

CELL = 44  # a board's square, px
GAP = 110  # between two leaves of a tree, px
LEVEL = 120  # between two levels of a tree, px
SIDE = 34  # a tree node's triangle, px

# A hatched fill: closed cells, and the nodes the student's search tested.
_HATCH = ('<defs><pattern id="{id}" width="6" height="6" patternUnits="userSpaceOnUse" '
          'patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff"/>'
          '<line x1="0" y1="0" x2="0" y2="6" stroke="#555" stroke-width="3"/></pattern></defs>')


def _svg(width: float, height: float, title_id: str, title: str, described: str,
         body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="picture" '
            f'width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} {height:g}" '
            f'aria-labelledby="{title_id}" aria-describedby="{described}">'
            f'<title id="{title_id}">{escape(title)}</title>' + "".join(body) + "</svg>")


def _text(x: float, y: float, text: str, size: int = 12, css: str = "",
          anchor: str = "middle") -> str:
    kind = f' class="{css}"' if css else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}"{kind}>'
            f"{escape(text)}</text>")


# -- the board ----------------------------------------------------------------------

def _cell(x: float, y: float, mark: str, hatch: str) -> list[str]:
    """A square and its mark: closed hatched, a player's piece a circle with its
    number, any other mark (X, O, a pin) as it is drawn; an open square blank."""
    middle_x, middle_y = x + CELL / 2, y + CELL / 2
    if mark == "#":
        return [f'<rect x="{x:g}" y="{y:g}" width="{CELL}" height="{CELL}" fill="url(#{hatch})" '
                'stroke="#222" class="closed"/>']
    square = f'<rect x="{x:g}" y="{y:g}" width="{CELL}" height="{CELL}" fill="#fff" stroke="#222"/>'
    if mark == ".":
        return [square]
    if mark.isdigit():
        return [square, f'<circle cx="{middle_x:g}" cy="{middle_y:g}" r="{CELL / 3:g}" '
                        'fill="#fff" stroke="#222" stroke-width="2" class="piece"/>',
                _text(middle_x, middle_y + 5, mark, 14)]
    return [square, _text(middle_x, middle_y + 9, mark, 26, "mark")]


def board(part: dict[str, Any], number: int, described: str) -> str:
    """The board ``part`` (``report_parts``: columns, rows of marks, note) as SVG,
    described by the element ``described`` (the board in words)."""
    labelled = bool(part["rows"][0]["label"])
    left, top = (64 if labelled else 8), 24
    width = left + CELL * len(part["columns"]) + 8
    height = top + CELL * len(part["rows"]) + 8
    hatch = f"hatch-board-{number}"
    body = [_HATCH.format(id=hatch)]
    for column, name in enumerate(part["columns"]):
        body.append(_text(left + CELL * column + CELL / 2, top - 8, name))
    for row, line in enumerate(part["rows"]):
        y = top + CELL * row
        if labelled:
            body.append(_text(left / 2, y + CELL / 2 + 4, line["label"]))
        for column, cell in enumerate(line["cells"]):
            body += _cell(left + CELL * column, y, cell["mark"], hatch)
    return _svg(width, height, f"board-{number}-title", f"The position: {part['note']}",
                described, body)


# -- piles of coins ------------------------------------------------------------------

COIN = 8  # a coin's step up its pile, px


def piles(part: dict[str, Any], number: int, described: str) -> str:
    """Nim's piles (``part``: each pile's label and coins, a note) as SVG, a stack
    of coins each with its name and count in words, described by the element
    ``described`` (the sentence that says them)."""
    tallest = max(pile["coins"] for pile in part["piles"])
    height = 24 + COIN * tallest + 50
    body = []
    for index, pile in enumerate(part["piles"]):
        x = 80 + 160 * index
        base = height - 50
        for coin in range(pile["coins"]):
            body.append(f'<ellipse cx="{x}" cy="{base - COIN * coin:g}" rx="22" ry="7" '
                        'fill="#fff" stroke="#222" stroke-width="1.5" class="coin"/>')
        count = "empty" if not pile["coins"] else \
            f"{pile['coins']} coin" + ("" if pile["coins"] == 1 else "s")
        body += [_text(x, height - 28, pile["label"]), _text(x, height - 12, count, 12, "count")]
    said = "; ".join(f"{pile['label']}: {pile['coins']}" for pile in part["piles"])
    return _svg(160 * len(part["piles"]), height, f"piles-{number}-title",
                f"The piles ({said}), {part['note']}", described, body)


# -- the tree -----------------------------------------------------------------------

def _places(nodes: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """Where each node goes: leaves side by side in order, a parent centred
    over its children, each level below the last."""
    children: list[list[int]] = [[] for _ in nodes]
    for index, node in enumerate(nodes[1:], 1):
        children[node["parent"]].append(index)
    places: list[tuple[float, float]] = [(0.0, 0.0)] * len(nodes)
    leaves = [0]

    def place(node: int, level: int) -> float:
        if children[node]:
            xs = [place(child, level + 1) for child in children[node]]
            x = (xs[0] + xs[-1]) / 2
        else:
            x, leaves[0] = leaves[0] * GAP, leaves[0] + 1
        places[node] = (x, level * LEVEL)
        return x

    place(0, 0)
    return places


def _kinds(node: dict[str, Any]) -> list[str]:
    """What a node's marks say, as its classes: who tested it, or pruned."""
    return [kind for kind, shown in (("reference", node["reference"] > 0),
                                     ("student", node["student"] > 0),
                                     ("pruned", node["pruned"]),
                                     ("beyond", node["value"] is None)) if shown]


def _node(node: dict[str, Any], x: float, y: float, hatch: str, move: str) -> list[str]:
    """A node: a triangle pointing up where max moves, down where min does;
    hatched where the student's search tested it; a solid outline where the
    reference tested it, dashed where it pruned it, dotted where it did not test
    it otherwise (the root, or beyond the depth); its name, both searches' tests,
    its value (or "pruned") and the ``move`` that leads to it, in words."""
    kinds = _kinds(node)
    half = SIDE / 2
    if node["mover"] == "max":
        corners = [(x, y - half), (x - half, y + half), (x + half, y + half)]
    else:
        corners = [(x - half, y - half), (x + half, y - half), (x, y + half)]
    fill = f"url(#{hatch})" if "student" in kinds else "#fff"
    dashes = "6 4" if "pruned" in kinds else "" if "reference" in kinds else "2 3"
    outline = f' stroke-dasharray="{dashes}"' if dashes else ""
    width = 3 if "reference" in kinds else 1.5
    points = " ".join(f"{cx:g},{cy:g}" for cx, cy in corners)
    value = node["value"]
    said = "pruned" if node["pruned"] else (
        "beyond the depth" if value is None else f"value {value:+d}" if value else "value 0")
    return [f'<g class="node {" ".join(kinds)}">',
            f'<polygon points="{points}" fill="{fill}" stroke="#222" stroke-width="{width}"'
            f"{outline}/>",
            _text(x + half + 4, y - half + 2, node["label"], 12, "label", "start"),
            _text(x, y + half + 14, f"ref {node['reference']} · you {node['student']}", 11),
            _text(x, y + half + 28, said, 11),
            *([_text(x, y + half + 42, move, 11, "move")] if move else []), "</g>"]


def _move_words(index: int, tree: dict[str, Any]) -> str:
    """What the move to the root's child ``index`` is: best, the student's, both."""
    best, chosen = index in tree["best"], index == tree["chosen"]
    return " and ".join(word for word, shown in (("best", best), ("your move", chosen))
                        if shown)


def tree(data: dict[str, Any], number: int, described: str) -> str:
    """The drawn tree ``data`` (a report test's ``tree``) as SVG, described by the
    element ``described`` (its text drawing)."""
    nodes = data["nodes"]
    places = _places(nodes)
    margin = GAP / 2 + 10
    width = max(x for x, _ in places) + 2 * margin
    height = max(y for _, y in places) + SIDE + 70
    hatch = f"hatch-tree-{number}"

    def at(index: int) -> tuple[float, float]:
        x, y = places[index]
        return x + margin, y + SIDE / 2 + 12

    body = [_HATCH.format(id=hatch)]
    for index, node in enumerate(nodes[1:], 1):  # edges first, from below a node's words
        parent = node["parent"]
        words = 3 if nodes[parent]["parent"] == 0 and _move_words(parent, data) else 2
        (x1, y1), (x2, y2) = at(parent), at(index)
        chosen = index == data["chosen"]
        kind = "edge chosen" if chosen else "edge"
        body.append(f'<line x1="{x1:g}" y1="{y1 + SIDE / 2 + 6 + 14 * words:g}" x2="{x2:g}" '
                    f'y2="{y2 - SIDE / 2 - 4:g}" stroke="#222" '
                    f'stroke-width="{4 if chosen else 1.5}" class="{kind}"/>')
    for index, node in enumerate(nodes):
        move = _move_words(index, data) if node["parent"] == 0 else ""
        body += _node(node, *at(index), hatch, move)
    depth = data["depth"]
    title = (f"The game tree: {len(nodes)} nodes"
             + (f", searched to depth {depth}" if depth is not None else ""))
    return _svg(width, height, f"tree-{number}-title", title, described, body)


LEGEND = ("▲ max moves there, ▼ min does. A thick solid outline: the reference "
          "tested the node; a hatched fill: your code tested it; a dashed outline and "
          "\"pruned\": the reference never tested it; a dotted outline: not tested by the "
          "reference otherwise (the root, or beyond the depth searched). Under each node: "
          "how often each called terminal_test on it (ref, you), its value for max, and "
          "whether the move to it is best or yours; a thick edge is your move.")
