"""The pictures of a report's pages: the smallest drawn tree a failing search test
finds and the position of a failing test, drawn as SVG from the report's data
(grader.pictures, through grader.report_parts), each node and cell marked as
the data say, every string escaped, and no WCAG violation on a page holding both."""

import re
import xml.etree.ElementTree as ET
from html import escape

import browser
import pytest
from conftest import built_in_case
from selenium.webdriver.common.by import By

from grader import exercises, intake, report, report_parts
from grader.batch import page
from grader.contracts import events
from grader.contracts.protocol import Tested as Counts  # not collected as a test class
from grader.contracts.run import Run
from grader.games import isolation, kayles, tictactoe
from grader.harness.checking.boards import grid
from grader.harness.lesson import trees
from grader.layouts import LAYOUTS

SVG = "{http://www.w3.org/2000/svg}"
SCRIPT = "<script>alert(1)</script>"
LABEL = "<script>n2</script>"  # a node's label: at most 20 characters
# n0 (max) -> n1 (min, two leaves: n2, n3), n4 (a leaf)
SMALL = [[[], []], []]


def svgs(html):
    """The SVG pictures in ``html``, parsed."""
    return [ET.fromstring(found) for found in re.findall(r"<svg .*?</svg>", html, re.S)]


def classes(element):
    return set(element.get("class", "").split())


def counts_tree(graded_locally):
    """The alpha-beta test whose search prunes only past the bound, as graded."""
    graded = graded_locally(built_in_case("alphabeta/prune_strict_bound"))
    return next(t for t in graded["tests"] if t["name"] == "test_call_counts")


def test_the_tree_in_the_report_is_the_one_its_text_draws(graded_locally):
    test = counts_tree(graded_locally)
    tree = test["tree"]
    assert tree["drawn"] in test["message"] and tree["depth"] == 2
    lines = tree["drawn"].splitlines()
    assert len(lines) == len(tree["nodes"])
    for node, line in zip(tree["nodes"], lines, strict=True):
        found = re.search(r"\b(n\d+) (max|min) to move.*reference (\d+), yours (\d+)", line)
        assert found.groups() == (node["label"], node["mover"], str(node["reference"]),
                                  str(node["student"])), line
        assert node["pruned"] == (node["parent"] is not None and node["reference"] == 0)
    # the reference stops where v reaches the bound; the strict test goes on
    assert any(n["pruned"] and n["student"] for n in tree["nodes"])
    assert tree["nodes"][tree["chosen"]]["parent"] == 0 and tree["best"]


def test_the_picture_marks_each_node_as_the_report_says(graded_locally):
    test = counts_tree(graded_locally)
    html = report_parts.to_html(report_parts.parts(test), 3)
    [board, drawn] = svgs(html)
    assert drawn.get("aria-describedby") == "tree-3-text"
    assert '<p class="message" id="tree-3-text">' in html
    nodes = drawn.findall(f".//{SVG}g")
    assert len(nodes) == len(test["tree"]["nodes"])
    for shown, node in zip(nodes, test["tree"]["nodes"], strict=True):
        said = {"reference": node["reference"] > 0, "student": node["student"] > 0,
                "pruned": node["pruned"], "beyond": node["value"] is None}
        assert classes(shown) == {"node", *(kind for kind, is_so in said.items() if is_so)}
        polygon = shown.find(f"{SVG}polygon")
        # not by colour alone: a hatched fill, a dashed outline, the words "pruned"
        assert (polygon.get("fill") == "url(#hatch-tree-3)") == said["student"]
        assert (polygon.get("stroke-dasharray") == "6 4") == node["pruned"]
        words = [text.text for text in shown.findall(f"{SVG}text")]
        assert words[0] == node["label"]
        assert words[1] == f"ref {node['reference']} · you {node['student']}"
        assert ("pruned" in words) == node["pruned"]
    [chosen] = [line for line in drawn.findall(f"{SVG}line") if "chosen" in classes(line)]
    assert chosen.get("stroke-width") == "4"


def test_the_tree_picture_shows_shape_for_whose_move_it_is():
    ours, theirs = Counts(n1=1, n2=1, n3=1, n4=1), Counts(n1=1, n2=1, n4=1)
    drawn = trees.draw(SMALL, None, ours, theirs)
    data = trees.picture(SMALL, None, ours, theirs, {(0, 4)}, (0, 1), drawn)
    [picture] = svgs(report_parts.to_html([{"kind": "tree", **data}], 1))
    tips = []
    for polygon in picture.iter(f"{SVG}polygon"):
        corners = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
        tips.append("up" if corners[0][1] < corners[1][1] else "down")  # a tip, or a side
    assert tips == ["up", "down", "up", "up", "down"]  # max at n0, n2, n3; min at n1, n4
    assert [n["value"] for n in data["nodes"]] == [1, -1, -1, -1, 1]
    assert (data["best"], data["chosen"]) == ([4], 1)


@pytest.mark.parametrize("game", [isolation, tictactoe, kayles], ids=lambda g: g.__name__)
def test_a_board_is_drawn_cell_by_cell_from_its_marks(game):
    for state, _ in game.positions()[:40]:
        drawing = game.draw(state)
        board = grid(drawing)
        marks = [cell for row in board["rows"] for cell in row["cells"]]
        html = report_parts.to_html(report_parts.parts({"message": drawing, "board": board}), 2)
        [picture] = svgs(html)
        assert picture.get("aria-describedby") == "board-2"
        assert len(picture.findall(f"{SVG}rect")) == len(marks)
        assert len([r for r in picture.iter(f"{SVG}rect") if "closed" in classes(r)]) == \
            marks.count("#")
        pieces = [c for c in picture.iter(f"{SVG}circle") if "piece" in classes(c)]
        assert len(pieces) == sum(mark.isdigit() for mark in marks)
        shown = [t.text for t in picture.iter(f"{SVG}text") if "mark" in classes(t)]
        assert shown == [m for m in marks if m not in "#." and not m.isdigit()]


def test_nim_s_piles_are_drawn_coin_by_coin_beside_their_sentence(graded_locally):
    graded = graded_locally(built_in_case("nim_negamax/no_hand_over"))
    [test] = [t for t in graded["tests"] if t["status"] == "failed"]
    board = test["board"]
    assert board["drawn"] in test["message"] and board["drawn"].startswith("each player")
    html = report_parts.to_html(report_parts.parts(test), 4)
    [picture] = svgs(html)
    assert picture.get("aria-describedby") == "piles-4"
    assert f'<p class="message" id="piles-4">{escape(board["drawn"])}</p>' in html
    coins = [e for e in picture.iter(f"{SVG}ellipse") if "coin" in classes(e)]
    assert len(coins) == sum(pile["coins"] for pile in board["piles"])
    counts = [t.text for t in picture.iter(f"{SVG}text") if "count" in classes(t)]
    assert counts == [f"{p['coins']} coin{'s' * (p['coins'] != 1)}" if p["coins"] else "empty"
                      for p in board["piles"]]


EXERCISE = exercises.load("alphabeta")


def built(message, tree=None, board=None):
    """The report's test test_call_counts, from an event with ``tree`` and ``board``."""
    sent = events.verdict("test_call_counts", "failed", message, [], False, 1, board, tree)
    passed = [{"event": "test", "name": t.name, "status": "passed", "message": "",
               "mistakes": []} for t in EXERCISE.tests if t.name != "test_call_counts"]
    run = Run("local", EXERCISE.limits.facts(),
              [sent, *passed, {"event": "session", "notes": [],
                               "output": {"text": SCRIPT, "bytes": len(SCRIPT)}}])
    made = report.validate(report.build(EXERCISE, intake.Submission({"alphabeta.py": b""}),
                                        run, 1, LAYOUTS["bubblewrap"]))
    return made, next(t for t in made["tests"] if t["name"] == "test_call_counts")


def small_tree(label=LABEL):
    ours = Counts(n1=1, n2=1, n3=1, n4=1)
    drawn = trees.draw(SMALL, 2, ours, ours)
    data = trees.picture(SMALL, 2, ours, ours, {(0, 4)}, (0, 4), drawn)
    data["nodes"][2]["label"] = label
    return data


def test_hostile_text_in_a_report_stays_text_on_its_pages():
    data = small_tree()
    board = grid(isolation.draw(isolation.positions()[3][0]))
    board = {**board, "note": SCRIPT, "columns": [SCRIPT, "x=1", "x=2"]}
    message = f"{SCRIPT}\n\n{board['drawn']}\n\n{data['drawn']}\n{SCRIPT}"
    made, test = built(message, data, board)
    assert test["tree"]["nodes"][2]["label"] == LABEL and test["board"]["note"] == SCRIPT
    shown = report_parts.to_html(report_parts.parts(test), 1)
    whole = page.report_page("mallory", made)
    for html in (shown, whole):
        assert "<script" not in html.lower()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;script&gt;n2&lt;/script&gt;" in html
    [board_picture, tree_picture] = svgs(shown)
    assert board_picture.find(f"{SVG}title").text == f"The position: {SCRIPT}"
    assert LABEL in [t.text for t in tree_picture.iter(f"{SVG}text")]  # as text, escaped


@pytest.mark.parametrize("forged", [
    lambda t: t["nodes"][1].update(parent=3),  # a child before its parent
    lambda t: t["nodes"][0].update(parent=0),
    lambda t: t["nodes"][2].update(reference="1"),
    lambda t: t["nodes"][2].update(mover="<b>"),
    lambda t: t["nodes"][2].update(value=2),
    lambda t: t["nodes"][2].update(script=SCRIPT),
    lambda t: t.update(chosen=2),  # not a move of the root
    lambda t: t.update(best=[9]),
    lambda t: t.update(drawn="not in the message"),
    lambda t: t.update(nodes=[]),
])
def test_a_tree_that_is_not_whole_is_left_out(forged):
    data = small_tree("n2")
    message = data["drawn"]
    forged(data)
    _, test = built(message, data)
    assert "tree" not in test and test["status"] == "failed"
    assert [part["kind"] for part in report_parts.parts(test)] == ["text"]


@pytest.mark.parametrize("forged", [
    [{"label": "the pile", "coins": -1}],
    [{"label": "the pile", "coins": 101}],
    [{"label": "the pile", "coins": "3"}],
    [{"label": "the pile", "coins": 3, "script": SCRIPT}],
    [{"label": "a", "coins": 1}] * 3,
    [],
])
def test_piles_that_are_not_whole_are_left_out(forged):
    drawn = "Nim: Nim(3), A to move, depth 2"
    _, test = built(drawn, board={"piles": forged, "note": "A to move", "drawn": drawn})
    assert "board" not in test


def test_a_batch_report_page_with_both_pictures_has_no_wcag_violation(graded_locally, driver,
                                                                     tmp_path):
    piles = graded_locally(built_in_case("nim_negamax/no_hand_over"))
    graded = graded_locally(built_in_case("alphabeta/prune_strict_bound"))
    shown = tmp_path / "reports" / "s1.html"
    shown.parent.mkdir()
    shown.with_name("s2.html").write_text(page.report_page("s2", piles), encoding="utf-8")
    driver.get(shown.with_name("s2.html").as_uri())
    coins = driver.find_element(By.CSS_SELECTOR, "svg[role=img][aria-describedby^=piles]")
    assert coins.find_elements(By.CSS_SELECTOR, "ellipse.coin")
    browser.accessible(driver)
    shown.write_text(page.report_page("s1", graded), encoding="utf-8")
    driver.get(shown.as_uri())
    figure = driver.find_element(By.CSS_SELECTOR, "figure.picture")
    tree = figure.find_element(By.CSS_SELECTOR, "svg[role=img]")
    drawing = driver.find_element(By.ID, tree.get_attribute("aria-describedby"))
    assert "terminal_test: reference" in drawing.text
    assert figure.find_element(By.TAG_NAME, "figcaption").text.startswith(
        "The smallest game tree found, drawn")
    board = driver.find_element(By.CSS_SELECTOR, "svg[role=img][aria-describedby^=board]")
    assert driver.find_element(By.ID, board.get_attribute("aria-describedby")).get_attribute(
        "textContent").startswith("Board 3 x 2")
    assert tree.size["width"] > 100 and board.size["height"] > 50  # drawn, not collapsed
    browser.accessible(driver)
