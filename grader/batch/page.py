"""The summary page of a batch run: summary.json as one self-contained HTML file.

Much of what the page shows comes from students (their ids, the messages their
programs caused), so every string from the summary is escaped on its way in.
The page loads nothing: no script, no font, no stylesheet or image file, so it
reads the same offline, from a copied folder or from a zip of the results.
"""

import html
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import quote

from grader import report_parts
from grader.batch.summary import Summary, report_file, shown_id
from grader.render import MARKS
from grader.report import Report

CSS = """
:root { --ink: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa;
        --bar: #0969da; --passed: #1a7f37; --failed: #cf222e; --error: #6e7781;
        --timeout: #9a6700; --rejected: #8250df; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
             sans-serif; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 32px; }
header { padding-top: 28px; }
main { padding-bottom: 48px; }
nav ul { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 8px 0 0; padding: 0;
         list-style: none; }
a:focus-visible { outline: 3px solid var(--bar); outline-offset: 2px; }
caption { text-align: left; color: var(--muted); font-size: 13px; padding: 0 0 6px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden;
           clip: rect(0 0 0 0); white-space: nowrap; }
h1 { font-size: 26px; margin: 0 0 2px; }
h1 .id, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
               font-size: 0.9em; }
h1 .id { color: var(--muted); font-weight: normal; margin-left: 10px; }
h2 { font-size: 19px; margin: 0 0 12px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.pair pre { white-space: pre-wrap; background: var(--soft); padding: 10px; }
mark.shared { background: #ffe08a; color: var(--ink); }
section { border-top: 1px solid var(--line); padding: 22px 0 10px; }
a { color: #0550ae; }
.meta, .aside, .note { color: var(--muted); }
.aside { font-size: 13px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 18px 0 6px; padding: 0;
         list-style: none; }
.cards li { min-width: 112px; padding: 8px 14px; border: 1px solid var(--line);
            border-radius: 8px; background: var(--soft); }
.cards .value { display: block; font-size: 24px; font-weight: 600; }
.cards .label { color: var(--muted); font-size: 13px; }
.callout { padding: 10px 14px; border-radius: 8px; border: 1px solid;
           margin: 14px 0 0; }
.callout.warn { background: #fff8c5; border-color: #d4a72c; }
.callout.ok { background: #dafbe1; border-color: #4ac26b; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 7px 10px;
         border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { background: var(--soft); font-size: 13px; color: var(--muted); font-weight: 600; }
tbody tr:last-child td { border-bottom: none; }
td.num, th.num { text-align: right; white-space: nowrap; }
/* A mistake id breaks only between ids ("a or b"), never inside one. */
code.mistake { white-space: nowrap; }
tr.pending td { background: #fbfbfc; color: var(--muted); }
.pill { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 13px;
        font-weight: 600; color: #fff; white-space: nowrap; }
.pill.full { background: var(--passed); }
.pill.graded { background: var(--bar); }
.pill.rejected { background: var(--rejected); }
.pill.error { background: var(--error); }
.pill.pending { background: var(--timeout); }
.stack { display: flex; height: 14px; border-radius: 3px; overflow: hidden;
         background: var(--soft); border: 1px solid var(--line); margin: 4px 0; }
.stack span.passed { background: var(--passed); }
.stack span.failed { background: var(--failed); }
.stack span.error { background: var(--error); }
.stack span.timeout { background: var(--timeout); }
.stack span.rejected { background: var(--rejected); }
.rate { font-size: 18px; font-weight: 600; white-space: nowrap; }
.legend { margin: 0 0 8px; }
.legend span::before { content: ""; display: inline-block; width: 10px; height: 10px;
                       margin: 0 5px 0 14px; border-radius: 2px; }
.legend .passed::before { background: var(--passed); }
.legend .failed::before { background: var(--failed); }
.legend .error::before { background: var(--error); }
.legend .timeout::before { background: var(--timeout); }
.legend .rejected::before { background: var(--rejected); }
.chart { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 32px; }
.chart .note { flex: 1 1 260px; margin: 0; }
svg text { font: 13px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
           fill: var(--ink); }
svg .grid { stroke: #eaeef2; }
svg .axis { stroke: var(--muted); }
svg .bar { fill: var(--bar); }
svg .title { fill: var(--muted); }
"""

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


def _e(value: object) -> str:
    """Any value from the summary as HTML text, safe in content and in quoted attributes."""
    return html.escape(str(value))


def _number(value: float | None) -> str:
    """A figure rounded to two decimals, or a dash where there is none."""
    return "\u2014" if value is None else f"{round(value, 2):g}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _href(path: str) -> str:
    # Each segment of the report's relative path is percent-quoted (quote keeps
    # only "/"): a name with a space, "#", "?", ":" or any non-ASCII letter
    # still points at its own file, and can't become a scheme, query or fragment.
    return _e(quote(path))


def _student(student: str) -> str:
    """A student's id as shown: cut when long, the whole id on hover."""
    shown = shown_id(student)
    if shown == student:
        return _e(student)
    return f'<span title="{_e(student)}">{_e(shown)}</span>'


def _mistake(entry: str, title: str = "") -> str:
    """A mistake id, or an "a or b" entry as one id after another, each kept whole."""
    hover = f' title="{_e(title)}"' if title else ""
    return " or ".join(f'<code class="mistake"{hover}>{_e(one)}</code>'
                       for one in entry.split(" or "))


def _student_link(entry: Row, beside: bool = True) -> str:
    """The student's id, linked to the report's page (the text report in a summary
    older than the pages); ``beside``: the text and JSON ones after it."""
    name = _student(entry["student"])
    if entry["text"] is None:
        return name
    shown = entry.get("page")
    link = f'<a href="{_href(shown or entry["text"])}">{name}</a>'
    if not beside:
        return link
    others = [(entry["text"], "text")] if shown else []
    return link + "".join(f' <a class="aside" href="{_href(path)}">{what}</a>'
                          for path, what in [*others, (entry["report"], "json")])


def _status(entry: Row) -> str:
    """The key of STATUSES that describes one student's row."""
    status: str = entry["status"]
    if status != "graded":
        return status
    if entry["rejected"]:
        return "rejected"
    return "full" if entry["score"] == entry["max_score"] else "graded"


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0]


def _header(summary: Summary) -> str:
    counts, scores = summary["counts"], summary["scores"]
    out_of = f'<span class="aside"> / {_number(summary["max_score"])}</span>'
    spread = ("\u2014" if scores["min"] is None
              else f'{_number(scores["min"])} \u2013 {_number(scores["max"])}')
    cards = [("students", _e(counts["students"])), ("graded", _e(counts["graded"])),
             ("full marks", _e(counts["full_marks"])), ("rejected", _e(counts["rejected"])),
             ("to regrade", _e(counts["errors"])), ("pending", _e(counts["pending"])),
             ("mean", _number(scores["mean"]) + out_of),
             ("median", _number(scores["median"]) + out_of),
             ("lowest \u2013 highest", spread)]
    items = "".join(f'<li><span class="value">{value}</span>'
                    f'<span class="label">{label}</span></li>' for label, value in cards)
    ungraded = ('<p class="callout warn">No student has been graded yet: there are no '
                'scores to sum up.</p>' if not counts["graded"] else "")
    return f"""<h1>{_e(summary["title"])}<span class="id">{_e(summary["exercise"])}</span></h1>
<p class="meta">Summary of a batch run \u00b7 generated {_e(summary["generated_at"])}
\u00b7 grader {_e(summary["grader_version"])} \u00b7 sandbox {_e(summary["sandbox"])}</p>
<ul class="cards">{items}</ul>
{ungraded}"""


def _pending(summary: Summary) -> str:
    waiting = [s for s in summary["students"] if s["status"] == "pending"]
    if not waiting:
        return ""
    names = ", ".join(_student(s["student"]) for s in waiting)
    return (f'<p class="callout warn" id="pending"><strong>Not graded yet: '
            f'{_plural(len(waiting), "student")}</strong> (the run ended before it reached '
            f'them): {names}. They have no score and are left out of every figure here.</p>')


def _step(peak: int) -> int:
    """A round step (1, 2, 5, 10, 20, ...) that needs at most five ticks to reach ``peak``."""
    steps: Iterator[int] = (m * 10 ** k for k in itertools.count() for m in (1, 2, 5))
    return next(step for step in steps if peak <= 5 * step)


def _bar(low: float, high: float, count: int, x: Callable[[float], float],
         y: Callable[[float], float], top: float) -> str:
    """One bin of the score chart: its bar, its hover title and its count."""
    left, width = x(low) + 1, max(x(high) - x(low) - 2, 1)
    label = (f'<text class="count" x="{left + width / 2:.1f}" y="{y(count) - 6:.1f}" '
             f'text-anchor="middle">{_e(count)}</text>' if count else "")
    span = "\u2264" if high == top else "&lt;"
    return (f'<rect class="bar" x="{left:.1f}" y="{y(count):.1f}" width="{width:.1f}" '
            f'height="{y(0) - y(count):.1f}" data-count="{_e(count)}"><title>'
            f'{_e(_plural(count, "student"))}: {_number(low)} \u2264 score {span} '
            f'{_number(high)}</title></rect>{label}')


def _chart(summary: Summary) -> str:
    """The score distribution as an SVG bar chart, one bar per bin of the histogram."""
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

    grid = "".join(
        f'<line class="grid" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(c):.1f}" y2="{y(c):.1f}"/>'
        f'<text x="{LEFT - 8}" y="{y(c) + 4:.1f}" text-anchor="end">{c}</text>'
        for c in range(0, ceiling + 1, step))
    edges = sorted({b["low"] for b in bins} | {b["high"] for b in bins})
    ticks = "".join(
        f'<line class="axis" x1="{x(e):.1f}" x2="{x(e):.1f}" y1="{y(0):.1f}" y2="{y(0) + 5:.1f}"/>'
        f'<text x="{x(e):.1f}" y="{y(0) + 20:.1f}" text-anchor="middle">{_number(e)}</text>'
        for e in edges)
    bars = "".join(_bar(b["low"], b["high"], b["count"], x, y, top) for b in bins)
    empty = (f'<text class="title" x="{LEFT + plot_w / 2}" y="{TOP + plot_h / 2}" '
             f'text-anchor="middle">no graded students yet</text>' if not peak else "")
    return f"""<svg id="histogram" width="{CHART_WIDTH}" height="{CHART_HEIGHT}" \
viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img" aria-labelledby="histogram-title" \
aria-describedby="histogram-words">
<title id="histogram-title">Scores of the graded students</title>
{grid}{bars}{empty}
<line class="axis" x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>{ticks}
<text class="title" x="{LEFT + plot_w / 2}" y="{CHART_HEIGHT - 10}" text-anchor="middle">\
score (points out of {_number(top)})</text>
<text class="title" transform="translate(18 {TOP + plot_h / 2}) rotate(-90)" \
text-anchor="middle">students</text>
</svg>"""


def _anchor(title: str) -> str:
    """A section's heading's id, from its title: the nav's links go there (prefixed:
    the sections' tables and lists have the plain names as ids)."""
    return "-".join(["about", *title.lower().split()])


def _section(title: str, body: str) -> str:
    return (f'<section aria-labelledby="{_anchor(title)}">\n<h2 id="{_anchor(title)}">{title}'
            f"</h2>\n{body}\n</section>")


def _counted(summary: Summary) -> str:
    """The chart in words, bar by bar: its text alternative."""
    bins, top = summary["scores"]["histogram"], summary["max_score"]
    said = [f'{_plural(b["count"], "student")} from {_number(b["low"])} to '
            f'{"" if b["high"] == top else "below "}{_number(b["high"])}' for b in bins
            if b["count"]]
    return ("Scores: " + "; ".join(said) + ".") if said else "No graded students yet."


def _histogram(summary: Summary) -> str:
    return _section("Scores", f"""<div class="chart">{_chart(summary)}
<p class="sr-only" id="histogram-words">{_e(_counted(summary))}</p>
<p class="note">Each bar counts the graded students whose score is at least its left edge and
below its right one; the last bar also holds the full marks. Students not graded (a grader
error, pending) are not counted.</p></div>""")


def _test_row(test: Row) -> str:
    total = sum(test[o] for o in OUTCOMES)
    segments = "".join(f'<span class="{o}" style="width:{100 * test[o] / total:.2f}%"></span>'
                       for o in OUTCOMES if test[o])
    counts = " \u00b7 ".join(f"{_e(test[o])} {o}" for o in OUTCOMES if test[o])
    rate = ("\u2014" if test["pass_rate"] is None
            else f'{100 * test["pass_rate"]:.0f}%')
    return (f'<tr><td>{_e(test["title"])}<br><code class="aside">{_e(test["name"])}</code></td>'
            f'<td class="num">{_number(test["max_score"])}</td>'
            f'<td class="num rate">{rate}</td>'
            f'<td><div class="stack">{segments}</div>'
            f'<span class="aside">{counts or "not run for any graded student"}'
            f'{f" (of {total})" if total else ""}</span></td></tr>')


def _tests(summary: Summary) -> str:
    rows = "".join(_test_row(test) for test in summary["tests"])
    return _section("Tests", f"""<p class="legend note">Results of the graded students (the pass
rate leaves out the rejected, whose tests never ran):
<span class="passed">passed</span><span class="failed">failed</span>
<span class="error">error</span><span class="timeout">timeout</span>
<span class="rejected">rejected</span></p>
<table id="tests"><caption>Each test's results</caption>
<thead><tr><th scope="col">test</th><th scope="col" class="num">points</th>
<th scope="col" class="num">passed</th><th scope="col" style="width:45%">results</th></tr>
</thead>
<tbody>{rows}</tbody>
</table>""")


def _links(names: Iterable[str], students: Iterable[Row]) -> str:
    """The named students, each linked to its report's page where the summary lists one
    (in a list of names, the name alone: the students' table has the other forms)."""
    by_name = {s["student"]: s for s in students}
    return ", ".join(_student_link(by_name[n], beside=False) if n in by_name else _student(n)
                     for n in names)


def _mistakes(summary: Summary) -> str:
    mistakes = summary["mistakes"]
    if not mistakes:
        return _section("Diagnosed mistakes", '<p class="note">No known mistake was diagnosed.</p>')
    rows = "".join(
        f'<tr><td>{_mistake(m["id"])}</td><td class="num">{_e(m["count"])}</td>'
        f'<td>{_e(m["hint"])}</td><td>{_links(m["students"], summary["students"])}</td></tr>'
        for m in mistakes)
    return _section("Diagnosed mistakes", f"""<table id="mistakes">
<caption>Mistakes, most common first</caption>
<thead><tr><th scope="col">mistake</th><th scope="col" class="num">students</th>
<th scope="col" style="width:45%">the hint they got</th><th scope="col">who</th></tr></thead>
<tbody>{rows}</tbody>
</table>""")


def _regrade(summary: Summary) -> str:
    entries = summary["regrade"]
    if not entries:
        body = ('<p class="callout ok">None: the grader itself failed on no submission, so '
                'nothing needs grading again.</p>')
    else:
        rows = "".join(f'<tr><td>{_links([r["student"]], summary["students"])}</td>'
                       f'<td>{_e(r["reason"])}</td></tr>' for r in entries)
        body = (f'<p class="note">The grader failed on these submissions: no score was '
                f'charged. Grade them again.</p>\n<table id="regrade">'
                f'<caption>Submissions to grade again</caption><thead><tr>'
                f'<th scope="col">student</th><th scope="col">why</th></tr></thead>'
                f'<tbody>{rows}</tbody></table>')
    return _section("To regrade", body)


def _identical(summary: Summary) -> str:
    groups = summary["identical"]
    if not groups:
        return ""
    items = "".join(f'<li>{_links(group, summary["students"])}</li>' for group in groups)
    return _section("Identical submissions", f"""<p class="note">The files of each group are \
byte for byte the same: they were graded once, and share one result.</p>
<ul id="identical">{items}</ul>""")


def _similar(summary: Summary) -> str:
    if "similar" not in summary:  # a summary older than the comparison
        return ""
    pairs = summary["similar"]
    if pairs is None:
        return _section("Similar submissions", '<p class="note">Not compared: install '
                        "copydetect (the <code>service</code> extra) to compare the "
                        "students' code.</p>")
    if not pairs:
        return ""
    rows = "".join(
        f"<tr><td>{_links(pair['students'][:1], summary['students'])}</td>"
        f"<td class=\"num\">{pair['shares'][0]:.0%}</td>"
        f"<td>{_links(pair['students'][1:], summary['students'])}</td>"
        f"<td class=\"num\">{pair['shares'][1]:.0%}</td>"
        f"<td><a href=\"{_href(pair['page'])}\">side by side</a></td></tr>" for pair in pairs)
    return _section("Similar submissions", f"""<p class="note">Pairs whose code is \
similar with names and strings made alike and the starter code left out: a reason to look, \
not a verdict.</p>
<table id="similar"><caption>Similar pairs, most similar first</caption>
<thead><tr><th scope="col">student</th><th scope="col" class="num">share found in the \
other's</th><th scope="col">other student</th><th scope="col" class="num">share found in \
the first's</th><th scope="col">code</th></tr></thead>
<tbody>{rows}</tbody></table>""")


def pair_page(exercise_id: str, pair: Any) -> str:
    """One similar pair's page: the two codes side by side, the shared passages
    marked (``pair`` is a ``grader.similarity.Pair``; its code is escaped already)."""
    sides = "".join(
        f'<section><h2>{_student(who)}: {share:.0%} shared</h2><pre class="code">{code}'
        "</pre></section>"
        for who, share, code in ((pair.left, pair.left_share, pair.left_html),
                                 (pair.right, pair.right_share, pair.right_html)))
    title = f"{exercise_id}: {pair.left} and {pair.right}"
    return document(title, f'<div class="pair">{sides}</div>', f"<h1>{_e(title)}</h1>",
                    [("../index.html", "Back to the summary")])


def _failed_test(number: int, test: Row) -> str:
    """A test that did not pass: its heading, its message as parts, its hint."""
    hint = f'<p class="hint">Hint: {_e(test["hint"])}</p>' if test["hint"] else ""
    return (f'<section aria-labelledby="test-{number}">\n<h2 id="test-{number}">'
            f'{_e(test["title"])}: {_e(MARKS[test["status"]])}</h2>\n'
            f'{report_parts.to_html(report_parts.parts(test), number)}\n{hint}\n</section>')


def report_page(student: str, report: Report) -> str:
    """One student's report as a page, beside its text and JSON in reports/: a heading
    per test that did not pass, its position as a table, expected and got as text."""
    rows = "".join(f'<tr class="{_e(t["status"])}"><th scope="row">{_e(t["title"])}</th>'
                   f'<td>{_e(MARKS[t["status"]])}</td><td class="num">{_number(t["score"])}/'
                   f'{_number(t["max_score"])}</td></tr>' for t in report["tests"])
    failed = "\n".join(_failed_test(number, test) for number, test
                       in enumerate(report["tests"], 1) if test["status"] != "passed")
    notes = "".join(f'<p class="note">Note: {_e(note)}</p>' for note in report["notes"])
    output = report["output"]
    printed = (f'<section aria-labelledby="output"><h2 id="output">What the code printed'
               f'{" (cut)" if output["truncated"] else ""}</h2>\n<pre tabindex="0">'
               f'{_e(output["text"])}</pre></section>' if output["text"] else "")
    body = (f'<p class="verdict">{_e(report["message"])}</p>\n<table id="tests">'
            f'<caption>Tests</caption><thead><tr><th scope="col">test</th>'
            f'<th scope="col">result</th><th scope="col" class="num">points</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>\n{failed}\n{notes}\n{printed}")
    top = (f'<h1>{_student(student)}<span class="id">{_e(report["exercise"])}</span></h1>\n'
           f'<p class="meta">{_e(report["title"])} \u00b7 grader '
           f'{_e(report["grader_version"])}</p>')
    beside = [(quote(report_file(student, suffix).split("/", 1)[1]), what)
              for suffix, what in (("txt", "The report as text"), ("json", "as JSON"))]
    return document(f"{student}: {report['title']} ({report['exercise']})", body, top,
                    [("../index.html", "Back to the summary"), *beside])


def _ignored(summary: Summary) -> str:
    if not summary["ignored"]:
        return ""
    items = "".join(f"<li><code>{_e(name)}</code></li>" for name in summary["ignored"])
    return _section("Ignored", f"""<p class="note">These entries of the submissions folder are \
not students' submissions.</p>
<ul id="ignored">{items}</ul>""")


def _student_row(entry: Row, hints: Mapping[str, str]) -> str:
    label, pill = STATUSES.get(_status(entry), (entry["status"], ""))
    score = ("\u2014" if entry["score"] is None
             else f'{_number(entry["score"])}/{_number(entry["max_score"])}')
    mistakes = ", ".join(_mistake(m, hints.get(m, "")) for m in entry["mistakes"])
    return (f'<tr class="{pill}"><td>{_student_link(entry)}</td>'
            f'<td class="num">{score}</td>'
            f'<td><span class="pill {pill}">{_e(label)}</span></td>'
            f'<td class="mistakes">{mistakes}</td>'
            f'<td>{_e(_first_line(entry["message"]))}</td></tr>')


def _students(summary: Summary) -> str:
    hints = {m["id"]: m["hint"] for m in summary["mistakes"]}
    rows = ("".join(_student_row(entry, hints) for entry in summary["students"])
            or '<tr><td colspan="5" class="note">No submissions were found.</td></tr>')
    return _section("Students", f"""<table id="students">
<caption>Every student, with the first line of their report</caption>
<thead><tr><th scope="col">student</th><th scope="col" class="num">score</th>
<th scope="col">status</th><th scope="col">mistakes</th>
<th scope="col" style="width:46%">message</th></tr></thead>
<tbody>{rows}</tbody>
</table>""")


SECTION_TITLE = re.compile(r'<h2 id="([^"]+)">([^<]+)</h2>')
SECTIONS = (_pending, _histogram, _tests, _mistakes, _regrade, _students, _identical,
            _similar, _ignored)


def document(title: str, body: str, top: str = "", links: Iterable[tuple[str, str]] = ()
             ) -> str:
    """A complete HTML5 document in this page's style, as text (``title`` escaped
    here, ``body`` and ``top`` HTML already): ``top`` in the page's header, then
    a nav of ``links`` (href, text), then ``body`` as its main content."""
    items = "".join(f'<li><a href="{_e(href)}">{_e(text)}</a></li>' for href, text in links)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{CSS}{report_parts.CSS}</style>
</head>
<body>
<header>
{top}
<nav aria-label="On this page"><ul>{items}</ul></nav>
</header>
<main id="main">
{body}
</main>
</body>
</html>
"""


def render(summary: Summary) -> str:
    """The summary page: a complete HTML5 document, as text."""
    body = "\n".join(part for part in (section(summary) for section in SECTIONS) if part)
    # The nav links every section the page holds (their titles are the page's own words).
    links = [(f"#{anchor}", title) for anchor, title in SECTION_TITLE.findall(body)]
    return document(f"{summary['title']} ({summary['exercise']}): batch summary", body,
                    _header(summary), links)
