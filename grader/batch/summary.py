"""How a class did: summary.json and grades.csv, from the students' reports.

Both are made from the reports alone (plus who is still pending), so a
resumed or interrupted batch writes them the same way as a whole one.
"""

import csv
import hashlib
import io
import json
import math
import os
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from functools import cache
from typing import Any

from grader import __version__
from grader.contracts import places
from grader.exercises import Exercise
from grader.report import Report, clean

SCHEMA = places.PACKAGE / "schema" / "summary.schema.json"
MOST_BINS = 20
# Spreadsheets run a cell that starts with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A student's id is the name of their entry, which a class zip lets be as long
# as it likes. summary.json and grades.csv keep it whole (it is the key to the
# gradebook); a report's file name keeps at most this many bytes of it (a file
# name may have 255, and the temp file written first adds to it); the page and
# the console show at most SHOWN_ID_CHARS characters of it.
ID_NAME_BYTES = 120
SHOWN_ID_CHARS = 60

Summary = dict[str, Any]  # valid against grader/schema/summary.schema.json


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return loaded


def _file_stem(student: str) -> str:
    """``student`` as the stem of a file name: whole when it fits, else its
    start and a digest of the whole id, so that two long ids never share a file."""
    raw = os.fsencode(student)  # the bytes on disk, even for a name that is not UTF-8
    if len(raw) <= ID_NAME_BYTES:
        return student
    digest = hashlib.sha256(raw).hexdigest()[:16]
    head = student[:ID_NAME_BYTES - 17]
    while len(os.fsencode(head)) > ID_NAME_BYTES - 17:  # letters of several bytes
        head = head[:-1]
    return f"{head}~{digest}"


def report_file(student: str, suffix: str) -> str:
    """Where a student's report lies in a batch's output folder: ``reports/<id>.<suffix>``."""
    return f"reports/{_file_stem(student)}.{suffix}"


def shown_id(student: str) -> str:
    """A student's id as the page and the console show it: controls escaped, and
    cut after SHOWN_ID_CHARS characters, saying how many more there were."""
    return clean(student, cap=SHOWN_ID_CHARS)


def _graded(reports: Mapping[str, Report | None]) -> list[Report]:
    return [r for r in reports.values() if r is not None and r["status"] == "graded"]


def _rejected(report: Report | None) -> bool:
    return report is not None and "rejected" in report["submission"]


def _histogram(scores: Sequence[float], max_score: float) -> list[dict[str, int]]:
    """Bins of equal width from 0 up to and including ``max_score``."""
    width = max(1, math.ceil(max_score / MOST_BINS))
    bins = [{"low": low, "high": low + width, "count": 0}
            for low in range(0, int(max_score) + 1, width)]
    for score in scores:
        bins[min(int(score // width), len(bins) - 1)]["count"] += 1
    return bins


def _scores(graded: Sequence[Report], max_score: float) -> dict[str, Any]:
    scores = [r["score"] for r in graded]
    figures: dict[str, float | None] = {"mean": None, "median": None, "min": None, "max": None}
    if scores:
        figures = {"mean": round(statistics.fmean(scores), 2),
                   "median": statistics.median(scores), "min": min(scores), "max": max(scores)}
    return {**figures, "histogram": _histogram(scores, max_score)}


def _tests(exercise: Exercise, graded: Sequence[Report]) -> list[dict[str, Any]]:
    """Each test's outcomes among the graded students whose code ran; a rejected
    student's tests were never run, so they are counted apart, not as errors."""
    ran = [r for r in graded if not _rejected(r)]
    rows = []
    for spec in exercise.tests:
        counts = Counter(t["status"] for r in ran for t in r["tests"] if t["name"] == spec.name)
        rows.append({"name": spec.name, "title": spec.title, "max_score": spec.points,
                     **{status: counts[status] for status in ("passed", "failed", "error",
                                                              "timeout")},
                     "rejected": len(graded) - len(ran),
                     "pass_rate": round(counts["passed"] / len(ran), 4) if ran else None})
    return rows


def diagnosed(report: Report | None) -> list[str]:
    """What one student's report says was diagnosed: each mistake a test named
    alone, then each "a or b" that a test could not decide (two mistakes fitting
    equally well), unless one of them was named alone elsewhere."""
    tests = report["tests"] if report else ()
    sure = {t["mistakes"][0] for t in tests if len(t["mistakes"]) == 1}
    either = {" or ".join(sorted(t["mistakes"])) for t in tests
              if len(t["mistakes"]) > 1 and not sure & set(t["mistakes"])}
    return sorted(sure) + sorted(either)


def _hint(entry: str, hints: Mapping[str, str]) -> str:
    ids = entry.split(" or ")
    return hints[entry] if len(ids) == 1 else " Or: ".join(
        ["Either: " + hints[ids[0]], *(hints[m] for m in ids[1:])])


def _mistakes(reports: Mapping[str, Report | None], hints: Mapping[str, str]
              ) -> list[dict[str, Any]]:
    """Each diagnosed mistake with the students it was found in, most common
    first, worded by ``hints`` (the exercise's); a student counts once, and
    under "a or b" where the grader could not tell the two apart."""
    found: defaultdict[str, set[str]] = defaultdict(set)
    for student, report in reports.items():
        for entry in diagnosed(report):
            found[entry].add(student)
    ranked = sorted(found.items(), key=lambda item: (-len(item[1]), item[0]))
    return [{"id": entry, "hint": _hint(entry, hints), "count": len(students),
             "students": sorted(students), "either": entry.split(" or ") if " or " in entry
             else []} for entry, students in ranked]


def _student(student: str, report: Report | None, max_score: float) -> dict[str, Any]:
    if report is None:
        return {"student": student, "status": "pending", "score": None, "max_score": max_score,
                "message": "not graded yet", "mistakes": [], "rejected": False, "tests": {},
                "report": None, "text": None, "page": None}
    mistakes = diagnosed(report)
    return {"student": student, "status": report["status"], "score": report["score"],
            "max_score": report["max_score"], "message": report["message"],
            "mistakes": mistakes, "rejected": _rejected(report),
            "tests": {t["name"]: t["status"] for t in report["tests"]},
            "report": report_file(student, "json"), "text": report_file(student, "txt"),
            "page": report_file(student, "html")}


def _to_regrade(reports: Mapping[str, Report | None]) -> list[tuple[str, str]]:
    """The students whose report the grader failed on, wholly (an error) or in
    some tests it could not check, with why."""
    found = []
    for student, report in reports.items():
        if report is not None and report["status"] == "error":
            found.append((student, report["message"]))
        elif report is not None and report.get("unchecked"):
            found.append((student, f"the grader could not check {', '.join(report['unchecked'])}"))
    return found


def summarize(exercise: Exercise, reports: Mapping[str, Report | None], backend: str,
              ignored: Iterable[str] = (), identical: Iterable[Iterable[str]] = (),
              similar: list[dict[str, Any]] | None = None) -> Summary:
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
        "mistakes": _mistakes(reports, exercise.hints()),
        "regrade": [{"student": student, "reason": reason}
                    for student, reason in _to_regrade(reports)],
        "identical": [sorted(group) for group in identical],
        "similar": similar,  # None: not compared (copydetect is not installed)
        "ignored": list(ignored),
        "students": rows,
    }
    import jsonschema  # not with the module: a grade imports batch for its name only

    jsonschema.validate(summary, schema())
    return summary


def _cell(value: object) -> str:
    text = "" if value is None else f"{value:g}" if isinstance(value, (int, float)) else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def gradebook(exercise: Exercise, summary: Summary) -> str:
    """grades.csv: student, score, max_score, status (graded, rejected, error or
    pending), each test's points, and the message on one line: why a student
    was rejected, or what the grader failed on."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["student", "score", "max_score", "status"]
                    + [spec.name for spec in exercise.tests] + ["message"])
    points = {spec.name: spec.points for spec in exercise.tests}
    for row in summary["students"]:
        tests = [points[name] if row["tests"].get(name) == "passed" else
                 (0 if row["status"] == "graded" else None) for name in points]
        status = "rejected" if row["rejected"] else row["status"]
        message = " ".join(row["message"].split())
        writer.writerow([_cell(v) for v in (row["student"], row["score"], row["max_score"],
                                             status, *tests, message)])
    return buffer.getvalue()
