"""The summary page of a batch run: summary.json as one self-contained HTML file
(templates/, on grader.pages' offline shell), and its students' and similar pairs' pages.

Much of what the page shows comes from students (their ids, the messages their
programs caused): the templates escape every string but the HTML made here
(a report's parts, escaped by grader.report_parts). The page loads nothing: no
script, no font, no stylesheet or image file, so it reads the same offline, from
a copied folder or from a zip of the results.
"""

import itertools
import math
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from grader import pages, report_parts
from grader.batch.summary import Summary, report_file, shown_id
from grader.render import MARKS
from grader.report import Report

# A test's outcomes for the graded students, as the Tests section shows them: a
# rejected student's tests never ran, which is neither an error nor a failure.
OUTCOMES = ("passed", "failed", "error", "timeout", "rejected")
# A student's status as shown: (label, class of its pill).
STATUSES = {"full": ("full marks", "full"), "graded": ("graded", "graded"),
            "rejected": ("rejected", "rejected"), "error": ("grader error", "error"),
            "pending": ("pending", "pending")}
# The score chart's size and margins, in SVG user units (pixels).
CHART_WIDTH, CHART_HEIGHT = 720, 270
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 26, 58

Row = dict[str, Any]  # one of summary.json's lists' entries: a student, a test


def _number(value: float | None) -> str:
    """A figure rounded to two decimals, or a dash where there is none."""
    return "\u2014" if value is None else f"{round(value, 2):g}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _anchor(title: str) -> str:
    """A section's heading's id, from its title: the nav's links go there (prefixed:
    the sections' tables and lists have the plain names as ids)."""
    return "-".join(["about", *title.lower().split()])


TEMPLATES = pages.environment(__package__)
# Each segment of a report's relative path is percent-quoted (quote keeps only
# "/"): a name with a space, "#", "?", ":" or any non-ASCII letter still points
# at its own file, and can't become a scheme, query or fragment.
TEMPLATES.filters.update(href=quote, shown_id=shown_id, plural=_plural, anchor=_anchor,
                         percent=lambda share: f"{share:.0%}")
BACK = ("../index.html", "Back to the summary")


def _status(entry: Row) -> str:
    """The key of STATUSES that describes one student's row."""
    status: str = entry["status"]
    if status != "graded":
        return status
    if entry["rejected"]:
        return "rejected"
    return "full" if entry["score"] == entry["max_score"] else "graded"


def _cards(summary: Summary) -> list[tuple[str, str, str]]:
    """The figures at the summary's top: (label, value, what it is out of)."""
    counts, scores = summary["counts"], summary["scores"]
    out_of = _number(summary["max_score"])
    spread = ("\u2014" if scores["min"] is None
              else f'{_number(scores["min"])} \u2013 {_number(scores["max"])}')
    return [("students", counts["students"], ""), ("graded", counts["graded"], ""),
            ("full marks", counts["full_marks"], ""), ("rejected", counts["rejected"], ""),
            ("to regrade", counts["errors"], ""), ("pending", counts["pending"], ""),
            ("mean", _number(scores["mean"]), out_of),
            ("median", _number(scores["median"]), out_of),
            ("lowest \u2013 highest", spread, "")]


def _step(peak: int) -> int:
    """A round step (1, 2, 5, 10, 20, ...) that needs at most five ticks to reach ``peak``."""
    steps: Iterator[int] = (m * 10 ** k for k in itertools.count() for m in (1, 2, 5))
    return next(step for step in steps if peak <= 5 * step)


def _chart(summary: Summary) -> dict[str, Any]:
    """The score chart's geometry, one bar per bin of the histogram (_chart.html draws it)."""
    bins, top = summary["scores"]["histogram"], summary["max_score"]
    # The x axis ends at full marks, or further where the last bin does
    # (a bin [max, max + 1) for the full marks alone).
    end = max([top, *(b["high"] for b in bins)]) or 1
    peak = max((b["count"] for b in bins), default=0)
    step = _step(max(peak, 1))
    ceiling = step * math.ceil(max(peak, 1) / step)
    plot_w, plot_h = CHART_WIDTH - LEFT - RIGHT, CHART_HEIGHT - TOP - BOTTOM

    def x(score: float) -> float:
        return LEFT + score / end * plot_w

    def y(count: float) -> float:
        return TOP + plot_h - count / ceiling * plot_h

    def bar(low: float, high: float, count: int) -> dict[str, Any]:
        left, width = x(low) + 1, max(x(high) - x(low) - 2, 1)
        span = "\u2264" if high == top else "<"
        return {"x": f"{left:.1f}", "y": f"{y(count):.1f}", "width": f"{width:.1f}",
                "height": f"{y(0) - y(count):.1f}", "count": count,
                "middle": f"{left + width / 2:.1f}", "label_y": f"{y(count) - 6:.1f}",
                "title": f'{_plural(count, "student")}: {_number(low)} \u2264 score {span} '
                         f"{_number(high)}"}

    edges = sorted({b["low"] for b in bins} | {b["high"] for b in bins})
    return {"width": CHART_WIDTH, "height": CHART_HEIGHT, "left": LEFT, "right": LEFT + plot_w,
            "middle_x": LEFT + plot_w / 2, "middle_y": TOP + plot_h / 2, "peak": peak,
            "top": _number(top),
            "grid": [{"count": c, "y": f"{y(c):.1f}", "label_y": f"{y(c) + 4:.1f}"}
                     for c in range(0, ceiling + 1, step)],
            "bars": [bar(b["low"], b["high"], b["count"]) for b in bins],
            "ticks": [{"x": f"{x(e):.1f}", "label": _number(e)} for e in edges],
            "base": {"y": f"{y(0):.1f}", "tick_y": f"{y(0) + 5:.1f}",
                     "label_y": f"{y(0) + 20:.1f}"}}


def _counted(summary: Summary) -> str:
    """The chart in words, bar by bar: its text alternative."""
    bins, top = summary["scores"]["histogram"], summary["max_score"]
    said = [f'{_plural(b["count"], "student")} from {_number(b["low"])} to '
            f'{"" if b["high"] == top else "below "}{_number(b["high"])}' for b in bins
            if b["count"]]
    return ("Scores: " + "; ".join(said) + ".") if said else "No graded students yet."


def _test(test: Row) -> dict[str, Any]:
    """A test's row of the Tests section: its results as a stacked bar and in words."""
    total = sum(test[o] for o in OUTCOMES)
    return {"title": test["title"], "name": test["name"], "total": total,
            "points": _number(test["max_score"]),
            "rate": "\u2014" if test["pass_rate"] is None else f'{100 * test["pass_rate"]:.0f}%',
            "widths": [(o, f"{100 * test[o] / total:.2f}") for o in OUTCOMES if test[o]],
            "counts": " \u00b7 ".join(f"{test[o]} {o}" for o in OUTCOMES if test[o])}


def _student(entry: Row, hints: dict[str, str]) -> dict[str, Any]:
    """A student's row of the Students section."""
    label, pill = STATUSES.get(_status(entry), (entry["status"], ""))
    score = ("\u2014" if entry["score"] is None
             else f'{_number(entry["score"])}/{_number(entry["max_score"])}')
    return {"entry": entry, "label": label, "pill": pill, "score": score,
            "mistakes": [(m, hints.get(m, "")) for m in entry["mistakes"]],
            "message": entry["message"].split("\n", 1)[0]}


def _sections(summary: Summary) -> list[str]:
    """The titles of the sections the summary shows, in order."""
    similar = "similar" in summary and summary["similar"] != []  # None: not compared
    shown = {"Identical submissions": bool(summary["identical"]),
             "Similar submissions": similar, "Ignored": bool(summary["ignored"])}
    return [title for title in SECTIONS if shown.get(title, True)]


SECTIONS = ("Scores", "Tests", "Diagnosed mistakes", "To regrade", "Students",
            "Identical submissions", "Similar submissions", "Ignored")


def pair_page(exercise_id: str, pair: Any) -> str:
    """One similar pair's page: the two codes side by side, the shared passages
    marked (``pair`` is a ``grader.similarity.Pair``; its code is escaped already)."""
    sides = [(who, f"{share:.0%}", code)
             for who, share, code in ((pair.left, pair.left_share, pair.left_html),
                                      (pair.right, pair.right_share, pair.right_html))]
    return pages.offline(TEMPLATES, "pair.html", sides=sides, links=[BACK],
                         title=f"{exercise_id}: {pair.left} and {pair.right}")


def _failed_test(number: int, test: Row) -> Markup:
    """A test that did not pass: its message as parts (grader.report_parts' HTML)."""
    return Markup(report_parts.to_html(report_parts.parts(test), number))  # noqa: S704


def report_page(student: str, report: Report) -> str:
    """One student's report as a page, beside its text and JSON in reports/: a heading
    per test that did not pass, its position as a table, expected and got as text."""
    rows = [(t["status"], t["title"], MARKS[t["status"]],
             f'{_number(t["score"])}/{_number(t["max_score"])}') for t in report["tests"]]
    failed = [(number, test, MARKS[test["status"]], _failed_test(number, test))
              for number, test in enumerate(report["tests"], 1) if test["status"] != "passed"]
    beside = [(quote(report_file(student, suffix).split("/", 1)[1]), what)
              for suffix, what in (("txt", "The report as text"), ("json", "as JSON"))]
    return pages.offline(TEMPLATES, "report.html", student=student, report=report, rows=rows,
                         failed=failed, links=[BACK, *beside],
                         title=f"{student}: {report['title']} ({report['exercise']})")


def render(summary: Summary) -> str:
    """The summary page: a complete HTML5 document, as text."""
    sections = _sections(summary)
    hints = {m["id"]: m["hint"] for m in summary["mistakes"]}
    return pages.offline(
        TEMPLATES, "summary.html", summary=summary, cards=_cards(summary), sections=sections,
        chart=_chart(summary), counted=_counted(summary),
        tests=[_test(test) for test in summary["tests"]],
        rows=[_student(entry, hints) for entry in summary["students"]],
        listed={entry["student"]: entry for entry in summary["students"]},
        # The nav links every section the page holds (their titles are the page's own words).
        links=[(f"#{_anchor(title)}", title) for title in sections],
        title=f"{summary['title']} ({summary['exercise']}): batch summary")
