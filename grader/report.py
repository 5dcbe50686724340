"""Assembling the report of one submission, and checking it against the schema.

What comes out of a sandbox is untrusted data: every event is checked, every
string is capped and escaped, and hints are looked up here from the mistake
ids rather than taken as text. Every report is validated before it leaves.
"""

import json
import re
import threading
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from grader import __version__, layouts
from grader.contracts import events
from grader.contracts.events import Event
from grader.contracts.run import Run
from grader.exercises import Exercise, TestSpec
from grader.intake import Submission
from grader.layouts import Layout

Report = dict[str, Any]  # valid against grader/schema/report.schema.json

SCHEMA = Path(__file__).resolve().parent / "schema" / "report.schema.json"
# Shown as escapes: C0 controls but tab and newline, DEL, C1 controls, the
# invisible and bidirectional formatting marks (which can make text display
# reversed), and the noncharacters XML refuses.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e"
                      "\u2066-\u2069\ufeff\ufffe\uffff]")


@cache
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return loaded


_MAKING = threading.Lock()  # one thread makes the validator; the others wait for it


def _validator() -> Any:
    with _MAKING:
        return _made_validator()


@cache
def _made_validator() -> Any:
    """The schema's validator, made once: ``jsonschema.validate`` would check the
    schema itself against its metaschema at every report, thirty times the
    report's own check. jsonschema is imported here, not with the module: a
    grading makes its validator while the sandbox runs (``ready``)."""
    import jsonschema

    kind = jsonschema.validators.validator_for(schema())
    kind.check_schema(schema())
    return kind(schema(), format_checker=jsonschema.FormatChecker())


@cache
def ready() -> None:
    """Start making the validator, once a process, in a thread of its own (its
    import and schema check take as long as a container's creation): a grading
    asks while its sandbox runs, so that ``validate`` later finds it made."""
    threading.Thread(target=_validator, daemon=True).start()


def validate(report: Report) -> Report:
    """Raise jsonschema.ValidationError unless ``report`` follows the schema
    (the error ``jsonschema.validate`` would raise: the best match)."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(report))
    if error is not None:
        raise error
    return report


def clean(text: object, cap: int = events.MESSAGE_CAP) -> str:
    """Printable, valid text: escapes for controls and lone surrogates, then capped."""
    if not isinstance(text, str):
        text = ""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xff
                        else f"\\x{ord(m.group()):02x}", text)
    return events.capped(text, cap)


def _output(session: Event) -> dict[str, Any]:
    output = session.get("output")
    if not isinstance(output, dict):
        return {"text": "", "bytes": 0, "truncated": False}
    size = output.get("bytes")
    return {
        "text": clean(output.get("text", ""), cap=1 << 16),
        "bytes": size if type(size) is int and size >= 0 else 0,
        "truncated": output.get("truncated") is True,
    }


def _mistakes(event: Event, hints: Mapping[str, str]) -> list[str]:
    ids = event.get("mistakes")
    return [m for m in ids if m in hints] if isinstance(ids, list) else []


BOARD_SIDE = 20  # columns and rows a board may have; a bigger one is shown as text only


def _strings(value: object, cap: int) -> list[str] | None:
    """``value`` as a list of at most BOARD_SIDE cleaned strings, or None."""
    if not isinstance(value, list) or not 0 < len(value) <= BOARD_SIDE \
            or not all(isinstance(item, str) for item in value):
        return None
    return [clean(item, cap) for item in value]


PILE = 100  # coins a pile may have to be drawn; a bigger one is shown as text only


def _piles(board: dict[str, Any], message: str) -> dict[str, Any] | None:
    """Piles of coins, checked and cleaned, where they are whole and the message
    holds the sentence that says them; else None."""
    piles, note, drawn = board.get("piles"), board.get("note"), board.get("drawn")
    if not isinstance(piles, list) or not 0 < len(piles) <= 2 or not all(
            isinstance(pile, dict) and pile.keys() == {"label", "coins"}
            and isinstance(pile["label"], str) and type(pile["coins"]) is int
            and 0 <= pile["coins"] <= PILE for pile in piles):
        return None
    if not isinstance(note, str) or not isinstance(drawn, str) or clean(drawn) not in message:
        return None
    return {"piles": [{"label": clean(pile["label"], 40), "coins": pile["coins"]}
                      for pile in piles], "note": clean(note, 200), "drawn": clean(drawn)}


def _board(event: Event, message: str) -> dict[str, Any] | None:
    """The event's board, checked and cleaned, where it is whole and the message
    holds its drawing (a page shows the table in the drawing's place); else None."""
    board = event.get("board")
    if not isinstance(board, dict):
        return None
    if "piles" in board:
        return _piles(board, message)
    columns = _strings(board.get("columns"), 40)
    rows = board.get("rows")
    if columns is None or not isinstance(rows, list) or not 0 < len(rows) <= BOARD_SIDE:
        return None
    kept = []
    for row in rows:
        cells = _strings(row.get("cells") if isinstance(row, dict) else None, 8)
        if cells is None or len(cells) != len(columns) or not isinstance(row.get("label"), str):
            return None
        kept.append({"label": clean(row["label"], 40), "cells": cells})
    note, drawn = board.get("note"), board.get("drawn")
    if not isinstance(note, str) or not isinstance(drawn, str) or clean(drawn) not in message:
        return None
    return {"columns": columns, "rows": kept, "note": clean(note, 200), "drawn": clean(drawn)}


TREE_NODES = 200  # nodes a tree may have to be drawn; a bigger one is shown as text only


def _tree(event: Event, message: str) -> dict[str, Any] | None:
    """The event's drawn tree, where it follows the schema, its nodes come in
    preorder (each parent before its children, the root first), its moves lead
    to nodes it has, and the message holds its text; else None."""
    tree = event.get("tree")
    if not isinstance(tree, dict) or not _validator().evolve(
            schema=schema()["$defs"]["tree"]).is_valid(tree):
        return None
    nodes, drawn = tree["nodes"], clean(tree["drawn"])
    ordered = nodes[0]["parent"] is None and all(
        type(node["parent"]) is int and node["parent"] < index
        for index, node in enumerate(nodes[1:], 1))
    led = [*tree["best"], *([] if tree["chosen"] is None else [tree["chosen"]])]
    if not ordered or any(m >= len(nodes) or nodes[m]["parent"] != 0 for m in led) \
            or drawn not in message:
        return None
    return {**tree, "nodes": [{**node, "label": clean(node["label"], 20)} for node in nodes],
            "drawn": drawn}


def hint(found: Sequence[str], hints: Mapping[str, str]) -> str | None:
    """The hint for the mistakes diagnosed in one test (two when both fit), in
    the words of ``hints`` (its exercise's: ``Exercise.hints``)."""
    if len(found) > 1:
        return "Two mistakes fit your answers equally well. " + " Or: ".join(
            hints[m] for m in found)
    return hints[found[0]] if found else None


def _test_entry(spec: TestSpec, event: Event | None, run: Run, hints: Mapping[str, str],
                running: bool = False) -> tuple[dict[str, Any], bool]:
    """One test of the report, from its event (or from how the run ended); its
    mistakes are worded by ``hints``.

    ``running``: this test had started and not finished when the run ended.
    """
    entry: dict[str, Any] = {
        "name": spec.name, "title": spec.title, "status": None, "score": 0,
        "max_score": spec.points, "visibility": spec.visibility, "message": "",
        "hint": None, "mistakes": [], "duration_ms": 0}
    if event is None:
        if run.timed_out and running:
            status, message = "timeout", (
                f"the whole run's limit of {run.limits['total_seconds']:g} s (of its own time: "
                "CPU, or time it spent, not time it waited for the machine) was reached "
                "while this test was running")
        elif run.timed_out:
            status, message = "timeout", (
                "not run: the run's time limit was reached before this test")
        else:
            status, message = "error", "not run: the grader stopped before this test"
        internal = not run.timed_out
    else:
        status, message = event["status"], clean(event.get("message", ""))
        internal = event.get("internal") is True
        entry["mistakes"] = _mistakes(event, hints)
        entry["hint"] = hint(entry["mistakes"], hints)
        duration = event.get("duration_ms")
        entry["duration_ms"] = duration if type(duration) is int and duration >= 0 else 0
        board = _board(event, message)
        if board is not None:
            entry["board"] = board
        tree = _tree(event, message)
        if tree is not None:
            entry["tree"] = tree
    entry.update(status=status, message=message,
                 score=spec.points if status == "passed" else 0)
    return entry, internal


def _base(exercise: Exercise, submission: Submission | None, layout: Layout,
          limits: dict[str, float], duration_ms: float) -> Report:
    return {
        "schema_version": 1,
        "grader_version": __version__,
        "exercise": exercise.id,
        "title": exercise.title,
        "status": "graded",
        "score": None,
        "max_score": exercise.max_score,
        "message": "",
        "tests": [],
        "notes": [],
        "output": {"text": "", "bytes": 0, "truncated": False},
        "submission": {
            "files": submission.manifest() if submission else [],
            "ignored": [clean(n, 300) for n in submission.ignored] if submission else [],
        },
        "sandbox": {**layouts.facts(layout), "limits": limits},
        "duration_ms": int(duration_ms),
    }


def _summary(score: float, max_score: float, tests: list[dict[str, Any]],
             import_error: str | None, run: Run, output: dict[str, Any]) -> str:
    passed = sum(t["status"] == "passed" for t in tests)
    parts = [f"{score:g}/{max_score:g} points: {passed} of {len(tests)} tests passed."]
    if import_error:
        parts.append(f"Your file could not be imported, so no test could run: {import_error}")
    if run.timed_out:
        parts.append(f"The run was stopped at its time limit of "
                     f"{run.limits['total_seconds']:g} s.")
    if run.out_of_memory or any("ran out of memory" in t["message"] for t in tests):
        killed = " and was killed" if run.out_of_memory else ""
        parts.append(f"Your code ran out of memory (the limit is "
                     f"{run.limits['memory_mb']:g} MB){killed}.")
    failing = next((t for t in tests if t["status"] != "passed"), None)
    if failing and not import_error:
        why = failing["message"].split("\n", 1)[0].rstrip(":")
        parts.append(f"First to fix: {failing['title']} ({failing['status']}): {why}")
    if output["truncated"]:
        parts.append(f"Your code printed {output['bytes']} bytes; the report keeps the "
                     f"first {len(output['text'])} characters (output cut).")
    return " ".join(parts)


def build(exercise: Exercise, submission: Submission, run: Run, duration_ms: float,
          layout: Layout) -> Report:
    """The report of a run that the sandbox carried out, in ``layout``."""
    verdicts = events.verdicts(run.events)
    session = events.first(run.events, "session")
    tests: list[dict[str, Any]] = []
    internal: list[str] = []
    running = events.running(run.events, {spec.name for spec in exercise.tests})
    hints = exercise.hints()
    for spec in exercise.tests:
        event = verdicts.get(spec.name)
        entry, broken = _test_entry(spec, event, run, hints,
                                    running=event is None and spec.name == running)
        tests.append(entry)
        if broken:
            internal.append(spec.name)
    report = _base(exercise, submission, layout, run.limits, duration_ms)
    report["sandbox"].update(exit_code=run.exit_code, timed_out=run.timed_out,
                             out_of_memory=run.out_of_memory, overloaded=run.overloaded,
                             clock="kernel" if run.kernel_clock else "wall")
    if run.time:
        report["sandbox"]["used"] = run.time
    if run.overloaded:  # no verdict: the machine's doing, not the student's
        report["tests"] = _not_run(exercise, f"not run: {OVERLOADED}")
        return validate(_as_error(report, OVERLOADED))
    report["tests"] = tests
    report["output"] = _output(session)
    notes = session.get("notes")
    report["notes"] = [clean(n) for n in notes if isinstance(n, str)][:20] \
        if isinstance(notes, list) else []
    if internal and len(internal) == len(tests):
        return validate(_as_error(report, f"the grader failed in {', '.join(internal)}"))
    if internal:  # the other tests keep their verdicts
        report["unchecked"] = internal
        report["notes"].append(UNCHECKED.format(", ".join(internal)))
    import_error = session.get("import_error")
    score = sum(t["score"] for t in tests)
    report.update(status="graded", score=score, message=_summary(
        score, exercise.max_score, tests,
        clean(import_error) if isinstance(import_error, str) else None, run, report["output"]))
    return validate(report)


OVERLOADED = ("the machine was too busy to time this run fairly (it waited for a CPU past the "
              "backstop while its own time was within its limits), so nothing of it counts")
UNCHECKED = ("For your instructor: the grader failed in its own check of {}: not a mistake of "
             "the student's. Those tests could not be checked and score 0 here; the other "
             "tests' verdicts stand. Grade this submission again once the grader is fixed.")


def overloaded(report: Report) -> bool:
    """Whether ``report`` is of a run the machine starved: not graded, to be run again."""
    return report["status"] == "error" and report["sandbox"].get("overloaded") is True


def _as_error(report: Report, why: str) -> Report:
    report.update(status="error", score=None, message=clean(
        f"Not graded: {why}. No score was charged; grade this submission again."))
    return report


def _not_run(exercise: Exercise, message: str) -> list[dict[str, Any]]:
    return [
        {"name": t.name, "title": t.title, "status": "error", "score": 0, "max_score": t.points,
         "visibility": t.visibility, "message": message, "hint": None, "mistakes": [],
         "duration_ms": 0}
        for t in exercise.tests
    ]


def grader_error(exercise: Exercise, submission: Submission, why: str, layout: Layout,
                 limits: dict[str, float], duration_ms: float = 0) -> Report:
    """The report when the grader itself could not grade (no sandbox, a bug) in
    ``layout`` (none, where no sandbox could be had)."""
    report = _base(exercise, submission, layout, limits, duration_ms)
    report["tests"] = _not_run(exercise, "not run")
    return validate(_as_error(report, why))


def starved(exercise: Exercise, submission: Submission, why: str, layout: Layout,
            limits: dict[str, float], duration_ms: float = 0) -> Report:
    """The report of a grading the machine starved (``why``): no verdict, an error
    charged nothing, to be graded again (``overloaded``)."""
    made = grader_error(exercise, submission, f"{OVERLOADED}: {why}", layout, limits,
                        duration_ms)
    made["sandbox"]["overloaded"] = True
    return validate(made)


def rejected(exercise: Exercise, why: str, limits: dict[str, float],
             duration_ms: float = 0) -> Report:
    """The report of a submission whose files could not be taken in: zero points."""
    report = _base(exercise, None, layouts.NONE, limits, duration_ms)
    report["submission"]["rejected"] = clean(why)
    report["tests"] = _not_run(exercise, f"not run: the submission was rejected: {clean(why)}")
    report.update(status="graded", score=0,
                  message=clean(f"0/{exercise.max_score:g} points: the submission was "
                                f"rejected: {why}"))
    return validate(report)
