"""Renderers: the report as JSON, readable text, Gradescope results.json, JUnit XML.

The report is the source; each renderer only reshapes it. Strings in the
report are already capped and escaped (``grader.report.clean``).
"""

import io
import json
import xml.etree.ElementTree as ET

from rich.console import Console
from rich.table import Table
from rich.text import Text

MARKS = {"passed": "ok", "failed": "FAILED", "error": "ERROR", "timeout": "TIMEOUT"}


def to_json(report):
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def _table(report):
    table = Table(title=Text(f"{report['title']} ({report['exercise']})"), expand=False)
    table.add_column("test")
    table.add_column("result")
    table.add_column("points", justify="right")
    for test in report["tests"]:
        table.add_row(Text(test["title"]), Text(MARKS[test["status"]]),
                      Text(f"{test['score']:g}/{test['max_score']:g}"))
    return table


def _details(report):
    """The feedback of every test that did not pass, then notes and output."""
    parts = []
    for test in report["tests"]:
        if test["status"] == "passed":
            continue
        parts.append(f"--- {test['title']} [{MARKS[test['status']]}]\n{test['message']}")
        if test["hint"]:
            parts.append(f"Hint: {test['hint']}")
    parts += [f"Note: {note}" for note in report["notes"]]
    output = report["output"]
    if output["text"]:
        cut = f" (cut: {output['bytes']} bytes in all)" if output["truncated"] else ""
        parts.append(f"--- What your code printed{cut}:\n{output['text']}")
    if report["submission"]["ignored"]:
        parts.append("Ignored (not part of this exercise): "
                     + ", ".join(report["submission"]["ignored"]))
    return "\n\n".join(parts)


def to_text(report, width=100):
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, highlight=False,
                      markup=False, emoji=False)
    console.print(_table(report))
    console.print(Text(report["message"]))
    details = _details(report)
    if details:
        console.print()
        console.print(Text(details))
    return buffer.getvalue()


def _gradescope_test(test):
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


def to_gradescope(report):
    """Gradescope's results.json, with only the fields its specification names."""
    notes = "".join(f"\nNote: {note}" for note in report["notes"])
    results = {
        "score": report["score"] if report["status"] == "graded" else 0,
        "execution_time": round(report["duration_ms"] / 1000, 3),
        "output": report["message"] + notes,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [_gradescope_test(test) for test in report["tests"]],
    }
    return json.dumps(results, indent=2, ensure_ascii=False) + "\n"


def to_junit(report):
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
