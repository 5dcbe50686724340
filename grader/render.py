"""Renderers: the report as JSON, readable text, Gradescope results.json, JUnit XML.

The report is the source; each renderer only reshapes it. Strings in the
report are already capped and escaped (``grader.report.clean``).
"""

import io
import json
import xml.etree.ElementTree as ET
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from grader import layouts
from grader.report import Report

MARKS = {"passed": "ok", "failed": "FAILED", "error": "ERROR", "timeout": "TIMEOUT"}
# Starts every line of the student's output in a text report: no line the
# student prints can start a line of the report, so the fences need no secret.
GUTTER = "| "


def to_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _table(report: Report) -> Table:
    table = Table(title=Text(f"{report['title']} ({report['exercise']})"), expand=False)
    table.add_column("test")
    table.add_column("result")
    table.add_column("points", justify="right")
    for test in report["tests"]:
        table.add_row(Text(test["title"]), Text(MARKS[test["status"]]),
                      Text(f"{test['score']:g}/{test['max_score']:g}"))
    return table


def _details(report: Report) -> str:
    """The feedback of every test that did not pass, then notes and ignored files."""
    parts: list[str] = []
    for test in report["tests"]:
        if test["status"] == "passed":
            continue
        parts.append(f"--- {test['title']} [{MARKS[test['status']]}]\n{test['message']}")
        if test["hint"]:
            parts.append(f"Hint: {test['hint']}")
    parts += [f"Note: {note}" for note in report["notes"]]
    if report["submission"]["ignored"]:
        parts.append("Ignored (not part of this exercise): "
                     + ", ".join(report["submission"]["ignored"]))
    return "\n\n".join(parts)


def _student_lines(text: str) -> list[str]:
    """The student's lines, each run of blank ones (whitespace only) cut to one
    and none at either end, so that blank lines can't stretch the report.
    Controls such as \\r and ANSI escapes are already escaped (``report.clean``)."""
    kept: list[str] = []
    for line in text.splitlines():  # every line break a viewer might honour
        if line.strip() or (kept and kept[-1]):
            kept.append(line if line.strip() else "")
    return kept[:-1] if kept and not kept[-1] else kept


def _fenced_output(console: Console, output: dict[str, Any]) -> None:
    """What the student printed between two fences, every line (wrapped ones too)
    behind the gutter, so that none can pass for the report's own."""
    cut = f" (cut: {output['bytes']} bytes in all)" if output["truncated"] else ""
    console.print(Text(f"=== What your code printed{cut} ==="))
    lines = _student_lines(output["text"])
    if lines:
        rows = Text("\n".join(lines)).wrap(console, console.width - cell_len(GUTTER),
                                           overflow="fold")
        # The rows fit already: no_wrap keeps rich from wrapping one out of the gutter.
        console.print(Text("\n".join((GUTTER + row.plain).rstrip() for row in rows)),
                      no_wrap=True)
    console.print(Text("=== End of what your code printed ==="))


def _closing(report: Report) -> str:
    """The report's last line, after anything the student printed."""
    if report["status"] == "graded":
        verdict = f"{report['score']:g}/{report['max_score']:g} points"
    else:
        verdict = "not graded (the grader failed), no score charged"
    return f"End of report: {verdict} ({report['exercise']})"


def _console(buffer: io.StringIO, width: int) -> Console:
    """A console that writes plain text, ``width`` columns wide, to ``buffer``."""
    return Console(file=buffer, width=width, color_system=None, highlight=False,
                   markup=False, emoji=False)


def _fenced(output: dict[str, Any], width: int) -> str:
    """What the student printed, fenced as in the text report, as text."""
    buffer = io.StringIO()
    _fenced_output(_console(buffer, width), output)
    return buffer.getvalue()


def to_text(report: Report, width: int = 100) -> str:
    """The verdict, how it was graded (the layout) and the feedback, the
    student's output fenced after them, and last a line that repeats the verdict."""
    buffer = io.StringIO()
    console = _console(buffer, width)
    console.print(_table(report))
    console.print(Text(report["message"]))
    graded_in = layouts.said(report["sandbox"])
    if graded_in:
        console.print(Text(graded_in))
    details = _details(report)
    if details:
        console.print()
        console.print(Text(details))
    if report["output"]["text"]:
        console.print()
        _fenced_output(console, report["output"])
    console.print()
    console.print(Text(_closing(report)))
    return buffer.getvalue()


def _gradescope_test(test: dict[str, Any]) -> dict[str, Any]:
    output = test["message"]
    if test["status"] in ("error", "timeout"):
        output = f"[{test['status']}] {output}"
    if test["hint"]:
        output += f"\n\nHint: {test['hint']}"
    return {
        "name": test["title"],
        "score": test["score"],
        "max_score": test["max_score"],
        "status": "passed" if test["status"] == "passed" else "failed",
        "output": output,
        "visibility": test["visibility"],
        "tags": test["mistakes"],
    }


def to_gradescope(report: Report, width: int = 100) -> str:
    """Gradescope's results.json, with only the fields its specification names.

    Its output is what students see first: the message and notes, then what
    their code printed, fenced and followed by the verdict as in the text report."""
    notes = "".join(f"\nNote: {note}" for note in report["notes"])
    printed = ""
    if report["output"]["text"]:
        printed = f"\n\n{_fenced(report['output'], width)}\n{_closing(report)}"
    results = {
        "score": report["score"] if report["status"] == "graded" else 0,
        "execution_time": round(report["duration_ms"] / 1000, 3),
        "output": report["message"] + notes + printed,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [_gradescope_test(test) for test in report["tests"]],
    }
    return json.dumps(results, indent=2, ensure_ascii=False) + "\n"


def to_junit(report: Report) -> str:
    tests = report["tests"]
    suite = ET.Element("testsuite", {
        "name": f"minimax-grader.{report['exercise']}",
        "tests": str(len(tests)),
        "failures": str(sum(t["status"] == "failed" for t in tests)),
        "errors": str(sum(t["status"] in ("error", "timeout") for t in tests)),
        "time": f"{report['duration_ms'] / 1000:.3f}",
    })
    for test in tests:
        case = ET.SubElement(suite, "testcase", {
            "classname": report["exercise"], "name": test["name"],
            "time": f"{test['duration_ms'] / 1000:.3f}",
        })
        if test["status"] != "passed":
            tag = "failure" if test["status"] == "failed" else "error"
            detail = ET.SubElement(case, tag, {"message": test["title"], "type": test["status"]})
            detail.text = test["message"] + (f"\nHint: {test['hint']}" if test["hint"] else "")
    ET.SubElement(suite, "system-out").text = report["output"]["text"]
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


RENDERERS = {"json": to_json, "text": to_text, "gradescope": to_gradescope, "junit": to_junit}
