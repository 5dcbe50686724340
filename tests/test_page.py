"""The summary page of a batch run: complete, escaped, self-contained, and legible in a browser."""

import json
import re
import statistics
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import unquote

import browser
import jsonschema
from conftest import ROOT
from markupsafe import Markup
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from grader import exercises, intake, similarity
from grader.batch import page
from grader.batch import summary as summary_module
from grader.contracts.hints import HINTS

EXERCISE = exercises.load("helpers")
POINTS = {t.name: t.points for t in EXERCISE.tests}
SCRIPT = "<script>alert(1)</script>"
ODD = "a b#c?d"
QUOTES = 'x" onmouseover="alert(1)'
UNICODE = "Zo\u00eb \u00d1"
NO_DOCKER = "no Docker engine answers (is the daemon running?)"
SCHEMA = json.loads((ROOT / "grader" / "schema" / "summary.schema.json").read_text("utf-8"))


# --- summaries, made the way the batch makes them -------------------------------------

def student(name, failed=(), mistakes=(), status="graded", rejected=False, message=None):
    """One student's row; ``failed`` lists the tests that failed, or maps each to its outcome."""
    failed = dict.fromkeys(failed, "failed") if not isinstance(failed, dict) else failed
    tests, score = {}, None
    if status == "graded":
        tests = {n: "error" if rejected else failed.get(n, "passed") for n in POINTS}
        score = sum(POINTS[n] for n, outcome in tests.items() if outcome == "passed")
        passed = sum(outcome == "passed" for outcome in tests.values())
        message = message or f"{score}/10 points: {passed} of 4 tests passed."
    elif status == "error":
        tests = dict.fromkeys(POINTS, "error")
    else:
        message = "not graded yet"
    reports = {"report": f"reports/{name}.json", "text": f"reports/{name}.txt",
               "page": f"reports/{name}.html"}
    if status == "pending":
        reports = {"report": None, "text": None, "page": None}
    return {"student": name, "status": status, "score": score, "max_score": 10,
            "message": message or "", "mistakes": list(mistakes), "rejected": rejected,
            "tests": tests, **reports}


def histogram(scores, bins=10, top=10):
    width = top / bins
    return [{"low": i * width, "high": (i + 1) * width,
             "count": sum(i * width <= s < (i + 1) * width or (i == bins - 1 and s == top)
                          for s in scores)} for i in range(bins)]


def summary_of(students, identical=(), ignored=()):
    """summary.json for these students: every figure computed from them, schema-valid."""
    graded = [s for s in students if s["status"] == "graded"]
    ran = [s for s in graded if not s["rejected"]]
    scores = [s["score"] for s in graded]
    tests = []
    for spec in EXERCISE.tests:
        outcomes = Counter(s["tests"][spec.name] for s in ran)
        tests.append({"name": spec.name, "title": spec.title, "max_score": spec.points,
                      **{o: outcomes[o] for o in ("passed", "failed", "error", "timeout")},
                      "rejected": len(graded) - len(ran),
                      "pass_rate": outcomes["passed"] / len(ran) if ran else None})
    diagnosed = Counter(m for s in graded for m in s["mistakes"])
    summary = {
        "schema_version": 1, "grader_version": "0.1.0", "exercise": EXERCISE.id,
        "title": EXERCISE.title, "max_score": 10, "generated_at": "2026-11-22T10:00:00+00:00",
        "sandbox": "docker",
        "counts": {"students": len(students), "graded": len(graded),
                   "full_marks": scores.count(10), "rejected": sum(s["rejected"] for s in graded),
                   "errors": sum(s["status"] == "error" for s in students),
                   "pending": sum(s["status"] == "pending" for s in students)},
        "scores": {"mean": statistics.mean(scores) if scores else None,
                   "median": statistics.median(scores) if scores else None,
                   "min": min(scores, default=None), "max": max(scores, default=None),
                   "histogram": histogram(scores)},
        "tests": tests,
        "mistakes": [{"id": m, "hint": HINTS[m], "count": n,
                      "students": [s["student"] for s in graded if m in s["mistakes"]]}
                     for m, n in diagnosed.most_common()],
        "regrade": [{"student": s["student"], "reason": NO_DOCKER}
                    for s in students if s["status"] == "error"],
        "identical": [list(group) for group in identical],
        "ignored": list(ignored),
        "students": students,
    }
    jsonschema.validate(summary, SCHEMA)
    return summary


def a_class():
    """A small class with one of each kind of student, and hostile names and messages."""
    flipped = {"test_min_value": "failed", "test_max_value": "failed"}
    return summary_of([
        student("alice"),
        student("bob", failed=flipped, mistakes=["flipped_utilities"]),
        student(SCRIPT, failed={"test_terminal_test": "timeout"},
                message=f'7/10 points: it printed {SCRIPT} & "quoted" <b>bold</b>\nsecond line'),
        student(ODD, rejected=True, message="0/10 points: the submission was rejected: "
                "no file named minimax_helpers.py"),
        student("carol", status="error",
                message=f"Not graded: {NO_DOCKER}. No score was charged; grade this "
                "submission again."),
        student("dave", status="pending"),
        student("erin", failed=flipped, mistakes=["flipped_utilities"]),
        student(UNICODE),
        student(QUOTES, failed=["test_min_value_empty_board", "test_max_value"],
                mistakes=["min_starts_at_zero"]),
    ], identical=[["bob", "erin"]], ignored=["README.txt", "notes & <i>things</i>.md"])


# --- reading the page back ----------------------------------------------------------

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "source"}


class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.children = tag, dict(attrs), []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag=None, **attrs):
        """Every element below this one with this tag and these attribute values."""
        for child in self.children:
            if isinstance(child, Node):
                if (tag in (None, child.tag)
                        and all(child.attrs.get(k) == v for k, v in attrs.items())):
                    yield child
                yield from child.all(tag, **attrs)

    def one(self, tag=None, **attrs):
        (found,) = self.all(tag, **attrs)
        return found


class Tree(HTMLParser):
    """A strict tree builder: every element must be closed, in order."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", [])
        self.open = [self.root]
        self.feed(text)
        self.close()
        assert self.open == [self.root], f"unclosed: {[n.tag for n in self.open[1:]]}"

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs)
        self.open[-1].children.append(node)
        if tag not in VOID:
            self.open.append(node)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Node(tag, attrs))

    def handle_endtag(self, tag):
        assert self.open[-1].tag == tag, f"</{tag}> closes <{self.open[-1].tag}>"
        self.open.pop()

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(text):
    return Tree(text).root


def rows(document, table):
    """The cells of each row of a table's body."""
    return [list(tr.all("td")) for tr in document.one("table", id=table).all("tr")
            if any(tr.all("td"))]


def squeeze(text):
    return " ".join(text.split())


# --- the page -----------------------------------------------------------------------

def shown_name(cell):
    """A student's cell as text, without the links to the other forms of the report."""
    return squeeze(cell.text()).removesuffix(" json").removesuffix(" text")


def test_every_student_has_one_row_linking_to_the_reports_page_text_and_json(tmp_path):
    summary = a_class()
    table = rows(parse(page.render(summary)), "students")
    assert [shown_name(r[0]) for r in table] == [s["student"] for s in summary["students"]]
    links = {shown_name(r[0]): [a.attrs["href"] for a in r[0].all("a")] for r in table}
    forms = ("html", "txt", "json")
    assert links["alice"] == [f"reports/alice.{form}" for form in forms]
    assert links[ODD] == [f"reports/a%20b%23c%3Fd.{form}" for form in forms]
    assert links[UNICODE] == [f"reports/Zo%C3%AB%20%C3%91.{form}" for form in forms]
    assert links[QUOTES] == [f"reports/x%22%20onmouseover%3D%22alert%281%29.{form}"
                             for form in forms]
    # A "/" in a report's path stays a separator: the link follows the path the batch gave.
    assert links[SCRIPT] == [f"reports/%3Cscript%3Ealert%281%29%3C/script%3E.{form}"
                             for form in forms]
    assert links["dave"] == []
    # Every link, read as a browser reads a relative URL, finds its own file.
    for entry in summary["students"]:
        for path in filter(None, (entry["report"], entry["text"], entry["page"])):
            (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path).write_text(entry["student"], encoding="utf-8")
    for name, hrefs in links.items():
        for href in hrefs:
            assert (tmp_path / unquote(href)).read_text(encoding="utf-8") == name


def test_a_summary_older_than_the_pages_links_the_text_report():
    summary = a_class()
    for entry in summary["students"]:
        del entry["page"]
    cell = rows(parse(page.render(summary)), "students")[0][0]
    assert [a.attrs["href"] for a in cell.all("a")] == ["reports/alice.txt",
                                                        "reports/alice.json"]


def test_each_row_shows_score_status_mistakes_and_the_first_line_of_the_message():
    table = rows(parse(page.render(a_class())), "students")
    shown = {shown_name(r[0]): [squeeze(c.text()) for c in r[1:]]
             for r in table}
    assert shown["alice"] == ["10/10", "full marks", "", "10/10 points: 4 of 4 tests passed."]
    assert shown["bob"] == ["4/10", "graded", "flipped_utilities",
                            "4/10 points: 2 of 4 tests passed."]
    assert shown[SCRIPT][3] == f'7/10 points: it printed {SCRIPT} & "quoted" <b>bold</b>'
    assert shown[ODD][:2] == ["0/10", "rejected"]
    assert shown["carol"][:2] == ["\u2014", "grader error"]
    assert shown["dave"][:2] == ["\u2014", "pending"]


def test_text_from_the_summary_is_escaped_everywhere():
    html = page.render(a_class())
    assert "<script" not in html.lower()
    document = parse(html)
    assert not [(e.tag, a) for e in document.all() for a in e.attrs if a.startswith("on")]
    assert not any(document.all("b")) and not any(document.all("i"))
    text = document.text()
    for shown in (SCRIPT, QUOTES, '& "quoted" <b>bold</b>', "notes & <i>things</i>.md"):
        assert shown in text


def test_the_page_loads_nothing_from_elsewhere():
    html = page.render(a_class())
    for needle in ("http://", "https://", "src=", "<link", "@import", "url("):
        assert needle not in html.lower()


def test_urls_in_the_data_stay_text():
    summary = a_class()
    bait = '<img src="https://example.com/x.png"><link rel=stylesheet href=//example.com/s.css>'
    summary["students"][0]["message"] = bait
    summary["regrade"][0]["reason"] = "see javascript:alert(1) and @import url(x)"
    document = parse(page.render(summary))
    assert not any(document.all("img")) and not any(document.all("link"))
    assert all(not e.attrs.get("src") for e in document.all())
    assert all(href.startswith(("reports/", "#")) for e in document.all("a")
               for href in [e.attrs["href"]])
    style = document.one("style").text()
    assert "@import" not in style and "url(" not in style
    assert bait in document.text()


def bars(document):
    return list(document.one("svg", id="histogram").all("rect", **{"class": "bar"}))


def test_one_bar_per_bin_with_heights_proportional_to_the_counts():
    summary = a_class()
    found = bars(parse(page.render(summary)))
    counts = [b["count"] for b in summary["scores"]["histogram"]]
    assert len(found) == len(counts) == 10
    assert [int(b.attrs["data-count"]) for b in found] == counts
    heights = [float(b.attrs["height"]) for b in found]
    unit = max(heights) / max(counts)
    assert unit > 0
    assert all(abs(h - c * unit) < 0.2 for h, c in zip(heights, counts, strict=True))
    xs = [float(b.attrs["x"]) for b in found]
    assert xs == sorted(xs)


def test_the_chart_has_axis_labels_and_counts():
    summary = a_class()
    chart = parse(page.render(summary)).one("svg", id="histogram")
    labels = [squeeze(t.text()) for t in chart.all("text")]
    assert "score (points out of 10)" in labels and "students" in labels
    assert all(str(edge) in labels for edge in range(11))
    assert [t.text() for t in chart.all("text", **{"class": "count"})] == \
        [str(b["count"]) for b in summary["scores"]["histogram"] if b["count"]]


def test_equal_scores_make_one_full_bar():
    summary = summary_of([student(name) for name in ("p", "q", "r")])
    found = bars(parse(page.render(summary)))
    heights = [float(b.attrs["height"]) for b in found]
    assert heights[:-1] == [0] * 9 and heights[-1] > 100


def test_a_bin_past_full_marks_stays_inside_the_chart():
    summary = summary_of([student("p"), student("q", failed=["test_max_value"])])
    summary["scores"]["histogram"] = [{"low": low, "high": low + 1, "count": int(low in (7, 10))}
                                      for low in range(11)]
    document = parse(page.render(summary))
    chart = document.one("svg", id="histogram")
    axis = next(line for line in chart.all("line", **{"class": "axis"})
                if line.attrs["y1"] == line.attrs["y2"])
    found = bars(document)
    assert len(found) == 11
    assert float(found[0].attrs["x"]) >= float(axis.attrs["x1"])
    assert float(found[-1].attrs["x"]) + float(found[-1].attrs["width"]) <= \
        float(axis.attrs["x2"])


def test_pass_rates_are_shown_for_every_test():
    summary = a_class()
    table = rows(parse(page.render(summary)), "tests")
    assert len(table) == len(EXERCISE.tests)
    for row, test in zip(table, summary["tests"], strict=True):
        title, points, rate, results = (squeeze(c.text()) for c in row)
        assert title.startswith(test["title"]) and row[0].one("code").text() == test["name"]
        assert points == str(test["max_score"])
        assert rate == f"{100 * test['pass_rate']:.0f}%"
        assert f"{test['passed']} passed" in results
        widths = [float(s.attrs["style"].removeprefix("width:").removesuffix("%"))
                  for s in row[3].all("span") if "style" in s.attrs]
        assert abs(sum(widths) - 100) < 0.1
    # the rejected student's tests never ran: shown apart, and left out of the pass rate
    assert squeeze(table[0][2].text()) == "83%"
    assert squeeze(table[0][3].text()) == "5 passed \u00b7 1 timeout \u00b7 1 rejected (of 7)"
    assert [s.attrs["class"] for s in table[0][3].all("span") if "style" in s.attrs] == \
        ["passed", "timeout", "rejected"]


def test_mistakes_show_counts_hints_and_students_most_common_first():
    table = rows(parse(page.render(a_class())), "mistakes")
    assert [(squeeze(r[0].text()), r[1].text(), r[2].text()) for r in table] == [
        ("flipped_utilities", "2", HINTS["flipped_utilities"]),
        ("min_starts_at_zero", "1", HINTS["min_starts_at_zero"])]
    assert [a.attrs["href"] for a in table[0][3].all("a")] == [
        "reports/bob.html", "reports/erin.html"]


def test_submissions_to_regrade_are_listed_with_the_reason():
    table = rows(parse(page.render(a_class())), "regrade")
    assert [(squeeze(r[0].text()), r[1].text()) for r in table] == [("carol", NO_DOCKER)]


def test_no_regrade_is_said_plainly():
    text = squeeze(parse(page.render(summary_of([student("alice")]))).text())
    assert "To regrade None: the grader itself failed on no submission" in text


def test_identical_groups_and_ignored_entries_are_shown_when_there_are_some():
    document = parse(page.render(a_class()))
    assert squeeze(document.one("ul", id="identical").text()) == "bob, erin"
    assert [squeeze(li.text()) for li in document.one("ul", id="ignored").all("li")] == \
        ["README.txt", "notes & <i>things</i>.md"]
    plain = parse(page.render(summary_of([student("alice")])))
    assert not any(plain.all("ul", id="identical")) and not any(plain.all("ul", id="ignored"))


def test_pending_students_are_called_out():
    document = parse(page.render(a_class()))
    assert squeeze(document.one(id="pending").text()).startswith(
        "Not graded yet: 1 student (the run ended before it reached them): dave.")


def test_a_class_with_no_graded_student_renders_and_says_so():
    for students in ([], [student("dave", status="pending"), student("erin", status="pending")]):
        summary = summary_of(students)
        document = parse(page.render(summary))
        text = squeeze(document.text())
        assert "No student has been graded yet" in text
        assert "no graded students yet" in text
        assert [float(b.attrs["height"]) for b in bars(document)] == [0] * 10
        assert [squeeze(r[2].text()) for r in rows(document, "tests")] == ["\u2014"] * 4
        assert [squeeze(r[0].text()) for r in rows(document, "students")] == \
            ([s["student"] for s in students] or ["No submissions were found."])


# --- in a browser ---------------------------------------------------------------------

ARTIFACT = ROOT / "test-artifacts" / "summary-page.png"
SIZE = (1280, 1800)


def test_a_browser_shows_the_page(chromium, tmp_path, capsys):
    summary = a_class()
    index = tmp_path / "index.html"
    index.write_text(page.render(summary), encoding="utf-8")
    dom = parse(browser.dump_dom(index))
    cards = {squeeze(li.one(**{"class": "label"}).text()):
             squeeze(li.one(**{"class": "value"}).text())
             for li in dom.one("ul", **{"class": "cards"}).all("li")}
    assert cards == {"students": "9", "graded": "7", "full marks": "2", "rejected": "1",
                     "to regrade": "1", "pending": "1", "mean": "5.86 / 10",
                     "median": "6 / 10", "lowest \u2013 highest": "0 \u2013 10"}
    shown = squeeze(dom.one("body").text())
    for mistake in summary["mistakes"]:
        assert mistake["id"] in shown and mistake["hint"] in shown
    assert [[c.text() for c in r[1:]] for r in rows(dom, "regrade")] == [[NO_DOCKER]]
    assert [shown_name(r[0]) for r in rows(dom, "students")] == \
        [s["student"] for s in summary["students"]]

    ARTIFACT.parent.mkdir(exist_ok=True)
    png = browser.screenshot(index, ARTIFACT, SIZE)
    assert browser.png_size(png) == SIZE
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><title>blank</title>", encoding="utf-8")
    empty = browser.screenshot(blank, tmp_path / "blank.png", SIZE)
    # A page of text, chart and table compresses far worse than an empty one.
    assert png.stat().st_size > 10 * empty.stat().st_size
    with capsys.disabled():
        print(f"\nscreenshot of the summary page: {png.relative_to(ROOT)}")


def test_axe_finds_no_wcag_violation_on_the_summary_and_a_pair_page(driver, tmp_path):
    summary = a_class()
    summary["similar"] = [{"students": ["bob", "erin"], "shares": [0.9, 0.8],
                           "page": "similar/1.html"}]
    index = tmp_path / "index.html"
    index.write_text(page.render(summary), encoding="utf-8")
    driver.get(index.as_uri())
    # Landmarks: the banner holds the title and the nav, which links every section.
    assert driver.find_element(By.CSS_SELECTOR, "header h1").text.startswith(EXERCISE.title)
    sections = [s.get_attribute("id") for s in driver.find_elements(By.CSS_SELECTOR, "main h2")]
    links = driver.find_elements(By.CSS_SELECTOR, "header nav a")
    assert [a.get_attribute("hash") for a in links] == [f"#{s}" for s in sections]
    # From the keyboard: the first Tab reaches the nav, Enter goes to its section.
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    assert driver.switch_to.active_element == links[0]
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    assert driver.current_url.endswith(links[0].get_attribute("hash"))
    words = driver.find_element(By.ID, "histogram-words").get_attribute("textContent")
    assert words.startswith("Scores: ") and "student" in words
    browser.accessible(driver)

    pair = similarity.Pair("bob", "erin", 0.9, 0.8, Markup('<mark class="shared">def f'
                                                           "():</mark>\n    return 1"),
                           Markup('<mark class="shared">def f():</mark>'))
    shown = tmp_path / "similar" / "1.html"
    shown.parent.mkdir()
    shown.write_text(page.pair_page("helpers", pair), encoding="utf-8")
    driver.get(shown.as_uri())
    assert driver.find_element(By.CSS_SELECTOR, "header nav a").get_attribute(
        "href") == index.as_uri()
    browser.accessible(driver)


def a_failed_report():
    """A report whose min_value failed on a position its event carries as a board."""
    from test_report_parts import built, event_of, failed

    from grader import report as reports
    from grader.contracts.run import Run
    from grader.games import isolation
    from grader.layouts import LAYOUTS

    mismatch = failed(isolation.positions()[:6], 3)
    test = built(event_of(mismatch))
    passed = [{"event": "test", "name": t.name, "status": "passed", "message": "",
               "mistakes": []} for t in EXERCISE.tests if t.name != test["name"]]
    run = Run("local", EXERCISE.limits.facts(),
              [event_of(mismatch), *passed, {"event": "session", "notes": [],
                                             "output": {"text": SCRIPT, "bytes": 25}}])
    return reports.build(EXERCISE, intake.Submission({"minimax_helpers.py": b""}), run, 1,
                         LAYOUTS["bubblewrap"])


def test_a_students_report_page_reads_as_text_with_the_board_as_a_table(driver, tmp_path):
    shown = tmp_path / "reports" / f"{ODD}.html"
    shown.parent.mkdir()
    shown.write_text(page.report_page(ODD, a_failed_report()), encoding="utf-8")
    driver.get(shown.as_uri())
    no_script = driver.find_elements(By.TAG_NAME, "script")
    assert no_script == [] and SCRIPT in driver.find_element(By.TAG_NAME, "pre").text
    [section] = driver.find_elements(By.CSS_SELECTOR, "main section[aria-labelledby^=test]")
    assert section.find_element(By.TAG_NAME, "h2").text == \
        "min_value on all 155 reachable positions: FAILED"
    board = section.find_element(By.CSS_SELECTOR, "table.board")
    assert board.find_element(By.TAG_NAME, "caption").text == "The position: player 2 to move"
    assert [th.text for th in board.find_elements(By.CSS_SELECTOR, "thead th")] == \
        ["x=0", "x=1", "x=2"]
    assert [th.text for th in board.find_elements(By.CSS_SELECTOR, "tbody th")] == \
        ["y=0", "y=1"]
    # What a screen reader reads: the summary describes the table, each cell in words.
    described = driver.find_element(By.ID, board.get_attribute("aria-describedby"))
    assert described.get_attribute("textContent").startswith("Board 3 x 2, player 2 to move.")
    assert [cell.get_attribute("textContent") for cell in
            board.find_elements(By.CSS_SELECTOR, "tbody tr:last-child span.sr-only")] == \
        ["empty", "empty", "closed"]
    assert section.find_elements(By.TAG_NAME, "pre") == []
    assert [dt.text for dt in section.find_elements(By.CSS_SELECTOR, "dl.values dt")] == \
        ["expected", "got"]
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "nav a")]
    assert [unquote(link.rsplit("/", 1)[1]) for link in links] == \
        ["index.html", f"{ODD}.txt", f"{ODD}.json"]
    browser.accessible(driver)


def test_the_service_and_the_batch_pages_share_one_stylesheet():
    style = (ROOT / "grader" / "pages" / "templates" / "style.css").read_text()
    assert f"<style>{style}</style>" in page.render(a_class())
    assert "table.board" in style and "svg.picture" in style  # the report's parts too


# --- statuses, mistakes and long ids ----------------------------------------------------

def css_rules(html):
    """The page's style sheet as {selector: {property: value}}."""
    style = parse(html).one("style").text()
    style = re.sub(r"/\*.*?\*/", "", style, flags=re.S)
    rules = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", style):
        declarations = dict(part.split(":", 1) for part in body.split(";") if ":" in part)
        for selector in selectors.split(","):
            rules[" ".join(selector.split())] = {k.strip(): v.strip()
                                                 for k, v in declarations.items()}
    return rules


def test_each_status_pill_has_the_colour_of_its_own_outcome():
    rules = css_rules(page.render(a_class()))
    background = {selector: rule["background"] for selector, rule in rules.items()
                  if "background" in rule}
    # a grader error looks like the tests' "error", a rejection like the tests' "rejected"
    assert background[".pill.error"] == background[".stack span.error"] == "var(--error)"
    assert background[".pill.rejected"] == background[".stack span.rejected"] == \
        "var(--rejected)"
    assert background[".pill.pending"] == "var(--timeout)"
    pills = [background[f".pill.{name}"] for name in ("full", "graded", "rejected", "error",
                                                     "pending")]
    assert len(set(pills)) == len(pills)


EITHER = "flipped_utilities or recursion_swapped"


def with_an_either(summary):
    summary["mistakes"].append({"id": EITHER, "hint": "Either: one. Or: the other.",
                                "count": 1, "students": ["bob"],
                                "either": EITHER.split(" or ")})
    return summary


def test_mistake_ids_are_kept_whole_and_an_either_is_two_ids():
    document = parse(page.render(with_an_either(a_class())))
    table = rows(document, "mistakes")
    assert [[c.text() for c in r[0].all("code")] for r in table] == [
        ["flipped_utilities"], ["min_starts_at_zero"], EITHER.split(" or ")]
    assert squeeze(table[-1][0].text()) == EITHER
    codes = list(document.one("table", id="mistakes").all("code"))
    assert codes and all(c.attrs["class"] == "mistake" for c in codes)
    assert css_rules(page.render(a_class()))["code.mistake"]["white-space"] == "nowrap"


def long_id_class():
    name = "x" * 200 + "-tail"
    row = student(name, failed=["test_max_value"], mistakes=["flipped_utilities"])
    row.update(report=summary_module.report_file(name, "json"),
               text=summary_module.report_file(name, "txt"),
               page=summary_module.report_file(name, "html"))
    return name, summary_of([row, student("alice")])


def test_a_long_student_id_is_cut_on_the_page_and_whole_on_hover():
    name, summary = long_id_class()
    document = parse(page.render(summary))
    cell = rows(document, "students")[0][0]
    shown = cell.one("span", title=name)
    assert shown.text() == summary_module.shown_id(name)
    assert name not in document.text() and shown.text().startswith("x" * 60)
    entry = summary["students"][0]
    assert [a.attrs["href"] for a in cell.all("a")] == [entry["page"], entry["text"],
                                                        entry["report"]]
    assert all(len(a.attrs["href"]) < 150 for a in cell.all("a"))
    # wherever the id is named: the list of who made a mistake too
    assert any(rows(document, "mistakes")[0][3].all("span", title=name))


MEASURE = """<style>main { width: 560px; }</style>
<script>
for (const code of document.querySelectorAll("#mistakes code, #students code")) {
  code.dataset.lines = code.getClientRects().length;
}
for (const pill of document.querySelectorAll(".pill")) {
  pill.dataset.colour = getComputedStyle(pill).backgroundColor;
}
</script>"""


def test_a_browser_keeps_mistake_ids_whole_in_a_narrow_page(chromium, tmp_path):
    """In a page squeezed to 560 px, every mistake id stays on one line; the pills of
    a grader error and of a pending student have their own colours."""
    summary = with_an_either(a_class())
    summary["mistakes"].append({"id": "cutoff_before_terminal_test_and_more", "hint": "h",
                                "count": 1, "students": ["bob"], "either": []})
    index = tmp_path / "index.html"
    index.write_text(page.render(summary).replace("</body>", MEASURE + "</body>"),
                     encoding="utf-8")
    dom = parse(browser.dump_dom(index))
    codes = list(dom.one("table", id="mistakes").all("code"))
    assert len(codes) == 5
    assert {c.text(): c.attrs["data-lines"] for c in codes} == {
        c.text(): "1" for c in codes}
    colours = {squeeze(p.text()): p.attrs["data-colour"] for p in dom.all("span")
               if "pill" in p.attrs.get("class", "")}
    assert colours["grader error"] == "rgb(110, 119, 129)"  # --error
    assert colours["pending"] == "rgb(154, 103, 0)"  # --timeout
    assert len(set(colours.values())) == 5
