"""How a class did: summary.json and grades.csv, from the students' reports.

Both are made from the reports alone (plus who is still pending), so a
resumed or interrupted batch writes them the same way as a whole one.
"""

import csv
import io
import json
import math
import statistics
from collections import Counter, defaultdict
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

import jsonschema

from grader import __version__
from grader.harness.mistakes import HINTS

SCHEMA = Path(__file__).resolve().parent / "schema" / "summary.schema.json"
MOST_BINS = 20
# Spreadsheets run a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@cache
def schema():
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def _graded(reports):
    return [r for r in reports.values() if r is not None and r["status"] == "graded"]


def _histogram(scores, max_score):
    """Bins of equal width from 0 up to and including ``max_score``."""
    width = max(1, math.ceil(max_score / MOST_BINS))
    bins = [{"low": low, "high": low + width, "count": 0}
            for low in range(0, int(max_score) + 1, width)]
    for score in scores:
        bins[min(int(score // width), len(bins) - 1)]["count"] += 1
    return bins


def _scores(graded, max_score):
    scores = [r["score"] for r in graded]
    figures = {"mean": None, "median": None, "min": None, "max": None}
    if scores:
        figures = {"mean": round(statistics.fmean(scores), 2),
                   "median": statistics.median(scores), "min": min(scores), "max": max(scores)}
    return {**figures, "histogram": _histogram(scores, max_score)}


def _tests(exercise, graded):
    rows = []
    for spec in exercise.tests:
        counts = Counter(t["status"] for r in graded for t in r["tests"] if t["name"] == spec.name)
        rows.append({"name": spec.name, "title": spec.title, "max_score": spec.points,
                     **{status: counts[status] for status in ("passed", "failed", "error",
                                                              "timeout")},
                     "pass_rate": round(counts["passed"] / len(graded), 4) if graded else None})
    return rows


def diagnosed(report: dict) -> list:
    """What one student's report says was diagnosed: each mistake a test named
    alone, then each "a or b" that a test could not decide (two mistakes fitting
    equally well), unless one of them was named alone elsewhere."""
    tests = report["tests"] if report else ()
    sure = {t["mistakes"][0] for t in tests if len(t["mistakes"]) == 1}
    either = {" or ".join(sorted(t["mistakes"])) for t in tests
              if len(t["mistakes"]) > 1 and not sure & set(t["mistakes"])}
    return sorted(sure) + sorted(either)


def _hint(entry):
    ids = entry.split(" or ")
    return HINTS[entry] if len(ids) == 1 else " Or: ".join(
        ["Either: " + HINTS[ids[0]], *(HINTS[m] for m in ids[1:])])


def _mistakes(reports):
    """Each diagnosed mistake with the students it was found in, most common
    first; a student counts once, and under "a or b" where the grader could not
    tell the two apart."""
    found = defaultdict(set)
    for student, report in reports.items():
        for entry in diagnosed(report):
            found[entry].add(student)
    ranked = sorted(found.items(), key=lambda item: (-len(item[1]), item[0]))
    return [{"id": entry, "hint": _hint(entry), "count": len(students),
             "students": sorted(students), "either": entry.split(" or ") if " or " in entry
             else []} for entry, students in ranked]


def _student(student, report, max_score):
    if report is None:
        return {"student": student, "status": "pending", "score": None, "max_score": max_score,
                "message": "not graded yet", "mistakes": [], "rejected": False, "tests": {},
                "report": None, "text": None}
    mistakes = diagnosed(report)
    return {"student": student, "status": report["status"], "score": report["score"],
            "max_score": report["max_score"], "message": report["message"],
            "mistakes": mistakes, "rejected": "rejected" in report["submission"],
            "tests": {t["name"]: t["status"] for t in report["tests"]},
            "report": f"reports/{student}.json", "text": f"reports/{student}.txt"}


def summarize(exercise, reports, backend, ignored=(), identical=()):
    """summary.json's content; ``reports`` maps each student to a report, or None if pending."""
    graded = _graded(reports)
    rows = [_student(s, r, exercise.max_score) for s, r in sorted(reports.items())]
    summary = {
        "schema_version": 1,
        "grader_version": __version__,
        "exercise": exercise.id,
        "title": exercise.title,
        "max_score": exercise.max_score,
        "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "sandbox": backend,
        "counts": {
            "students": len(rows),
            "graded": len(graded),
            "full_marks": sum(r["score"] == exercise.max_score for r in graded),
            "rejected": sum(row["rejected"] for row in rows),
            "errors": sum(row["status"] == "error" for row in rows),
            "pending": sum(row["status"] == "pending" for row in rows),
        },
        "scores": _scores(graded, exercise.max_score),
        "tests": _tests(exercise, graded),
        "mistakes": _mistakes(reports),
        "regrade": [{"student": row["student"], "reason": row["message"]}
                    for row in rows if row["status"] == "error"],
        "identical": [sorted(group) for group in identical],
        "ignored": list(ignored),
        "students": rows,
    }
    jsonschema.validate(summary, schema())
    return summary


def _cell(value):
    text = "" if value is None else f"{value:g}" if isinstance(value, (int, float)) else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def gradebook(exercise, summary):
    """grades.csv: student, score, max_score, status, then each test's points."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["student", "score", "max_score", "status"]
                    + [spec.name for spec in exercise.tests])
    points = {spec.name: spec.points for spec in exercise.tests}
    for row in summary["students"]:
        tests = [points[name] if row["tests"].get(name) == "passed" else
                 (0 if row["status"] == "graded" else None) for name in points]
        writer.writerow([_cell(v) for v in
                         (row["student"], row["score"], row["max_score"], row["status"], *tests)])
    return buffer.getvalue()
