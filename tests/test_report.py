"""Reports: built from untrusted events, always schema-valid, errors never zeros."""

import json
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET

import jsonschema
import pytest
from conftest import ROOT, grade
from rich.cells import cell_len

from grader import exercises, intake, render, report
from grader.contracts.run import Run
from grader.layouts import LAYOUTS

WRAPPED = LAYOUTS["bubblewrap"]  # the layout of the runs these reports stand for

HOSTILE = ROOT / "tests" / "hostile"

EXERCISE = exercises.load("helpers")
LIMITS = EXERCISE.limits.facts()
SUBMISSION = intake.Submission({"minimax_helpers.py": b"x = 1\n"})


def run(*events, **facts):
    return Run(backend="local", limits=LIMITS, events=list(events), **facts)


def passed(name):
    return {"event": "test", "name": name, "status": "passed", "message": "", "mistakes": []}


def all_passed():
    return [passed(t.name) for t in EXERCISE.tests]


def test_all_passed_is_full_marks():
    built = report.build(EXERCISE, SUBMISSION, run(*all_passed(), {"event": "end"}), 12, WRAPPED)
    assert built["status"] == "graded"
    assert built["score"] == built["max_score"] == 10
    assert built["message"].startswith("10/10 points: 4 of 4 tests passed")


def test_hints_come_from_mistake_ids_not_from_the_sandbox():
    event = {"event": "test", "name": "test_min_value", "status": "failed", "message": "wrong",
             "mistakes": ["flipped_utilities", "made_up"], "hint": "forged hint"}
    built = report.build(EXERCISE, SUBMISSION, run(event), 1, WRAPPED)
    test = next(t for t in built["tests"] if t["name"] == "test_min_value")
    assert test["mistakes"] == ["flipped_utilities"]
    assert test["hint"].startswith("Your terminal values are the wrong way round")


def test_garbage_and_forged_events_are_ignored():
    forged = [
        {"event": "test", "name": "test_min_value", "status": "excellent"},
        {"event": "test", "name": "test_made_up", "status": "passed"},
        {"event": "test", "name": 7, "status": "passed"},
        {"event": "session", "output": "not a dict", "notes": "not a list"},
    ]
    built = report.build(EXERCISE, SUBMISSION, run(*forged), 1, WRAPPED)
    assert built["status"] == "error" and built["score"] is None
    assert [t["name"] for t in built["tests"]] == [t.name for t in EXERCISE.tests]


def test_first_event_for_a_test_wins():
    failed = {"event": "test", "name": "test_max_value", "status": "failed", "message": "no"}
    events = [e for e in all_passed() if e["name"] != "test_max_value"]
    built = report.build(EXERCISE, SUBMISSION, run(failed, *events, passed("test_max_value")), 1,
                         WRAPPED)
    assert built["score"] == 7


def test_a_run_stopped_at_its_time_limit_charges_the_unfinished_tests():
    built = report.build(EXERCISE, SUBMISSION, run(passed("test_terminal_test"), timed_out=True), 1,
                         WRAPPED)
    assert built["status"] == "graded" and built["score"] == 3
    assert [t["status"] for t in built["tests"]] == ["passed", "timeout", "timeout", "timeout"]
    assert "stopped at its time limit" in built["message"]


def test_a_grader_failure_in_one_check_is_that_tests_alone():
    internal = {"event": "test", "name": "test_min_value", "status": "error",
                "message": "could not be checked: internal grader error: KeyError",
                "internal": True}
    others = [e for e in all_passed() if e["name"] != "test_min_value"]
    built = report.build(EXERCISE, SUBMISSION, run(*others, internal), 1, WRAPPED)
    assert built["status"] == "graded" and built["unchecked"] == ["test_min_value"]
    points = {t.name: t.points for t in EXERCISE.tests}
    assert built["score"] == EXERCISE.max_score - points["test_min_value"]
    assert any("could not be checked" in note for note in built["notes"])


def test_a_grader_that_checked_nothing_is_an_error_with_no_score():
    crashed = report.build(EXERCISE, SUBMISSION, run(exit_code=-9), 1, WRAPPED)
    assert crashed["status"] == "error" and crashed["score"] is None
    assert "No score was charged" in crashed["message"]


def test_the_student_output_is_escaped_and_capped():
    session = {"event": "session", "output": {
        "text": "\x1b[31mred\x00 \ud800 done\n" + "x" * 70000, "bytes": 70030, "truncated": True}}
    built = report.build(EXERCISE, SUBMISSION, run(*all_passed(), session), 1, WRAPPED)
    text = built["output"]["text"]
    assert text.startswith("\\x1b[31mred\\x00 \\ud800 done\n")
    assert "characters cut" in text and len(text) < 66000
    json.dumps(built, ensure_ascii=False).encode("utf-8")  # valid UTF-8 throughout


def test_the_schema_rejects_a_zero_for_an_error_and_unknown_fields():
    built = report.grader_error(EXERCISE, SUBMISSION, "no engine", LAYOUTS["docker"], LIMITS)
    assert built["status"] == "error" and built["score"] is None
    for bad in ({**built, "score": 0}, {**built, "extra": 1},
                {**built, "tests": [{**built["tests"][0], "status": "skipped"}]}):
        with pytest.raises(jsonschema.ValidationError):
            report.validate(bad)


def test_a_bad_report_raises_what_jsonschema_validate_says_of_it():
    built = report.grader_error(EXERCISE, SUBMISSION, "no engine", LAYOUTS["docker"], LIMITS)
    for bad in ({**built, "score": 0, "extra": 1}, {**built, "tests": "none"},
                {**built, "sandbox": {**built["sandbox"], "backend": 3}}):
        with pytest.raises(jsonschema.ValidationError) as ours:
            report.validate(bad)
        with pytest.raises(jsonschema.ValidationError) as theirs:
            jsonschema.validate(bad, report.schema(), format_checker=jsonschema.FormatChecker())
        assert (ours.value.message, ours.value.path) == (theirs.value.message, theirs.value.path)


def test_rejected_submission_is_graded_zero_with_the_reason():
    built = report.rejected(EXERCISE, "minimax_helpers.py is empty", LIMITS)
    assert built["status"] == "graded" and built["score"] == 0
    assert built["submission"]["rejected"] == "minimax_helpers.py is empty"
    assert "rejected: minimax_helpers.py is empty" in built["message"]


def mixed_printing(text, truncated=False):
    """A report of 3/10 with every kind of failure, whose code printed ``text``."""
    events = [passed("test_terminal_test"),
              {"event": "test", "name": "test_min_value", "status": "failed",
               "message": "min_value is wrong <&>", "mistakes": ["flipped_utilities"]},
              {"event": "test", "name": "test_max_value", "status": "timeout",
               "message": "time limit"},
              {"event": "test", "name": "test_min_value_empty_board", "status": "error",
               "message": "raised ValueError"},
              {"event": "session", "output": {"text": text, "bytes": len(text.encode()),
                                              "truncated": truncated},
               "notes": ["a note"]}]
    return report.build(EXERCISE, SUBMISSION, run(*events), 1500, WRAPPED)


@pytest.fixture
def mixed():
    return mixed_printing("hi [bold]x[/bold]\n")


def test_gradescope_results_follow_the_spec(mixed):
    results = json.loads(render.to_gradescope(mixed))
    assert set(results) == {"score", "execution_time", "output", "visibility",
                            "stdout_visibility", "tests"}
    assert results["score"] == 3 and results["execution_time"] == 1.5
    allowed = {"name", "score", "max_score", "status", "output", "visibility", "tags"}
    for test in results["tests"]:
        assert set(test) == allowed
        assert test["status"] in ("passed", "failed")
    timeout = next(t for t in results["tests"] if t["name"].startswith("max_value"))
    assert timeout["status"] == "failed" and timeout["output"].startswith("[timeout]")
    flipped = next(t for t in results["tests"] if t["tags"])
    assert "Hint:" in flipped["output"]


def test_junit_counts_failures_and_errors(mixed):
    suite = ET.fromstring(render.to_junit(mixed).split("?>", 1)[1])
    assert suite.get("tests") == "4" and suite.get("failures") == "1" and suite.get("errors") == "2"
    assert suite.find("testcase/failure").text.startswith("min_value is wrong <&>")


def test_text_shows_the_table_feedback_and_output_verbatim(mixed):
    text = render.to_text(mixed)
    assert "FAILED" in text and "TIMEOUT" in text and "3/10 points" in text
    assert "Hint: Your terminal values" in text
    assert "hi [bold]x[/bold]" in text  # printed text is never read as markup
    assert "Note: a note" in text


def test_json_renders_the_report_itself(mixed):
    assert json.loads(render.to_json(mixed)) == mixed


def test_noncharacters_and_bidi_marks_are_escaped_so_xml_and_terminals_stay_sane():
    text = report.clean("a\ufffeb\uffffc \u202etxt.exe \u200bz")
    assert text == "a\\ufffeb\\uffffc \\u202etxt.exe \\u200bz"
    built = report.build(EXERCISE, SUBMISSION, run(*all_passed(), {
        "event": "session", "output": {"text": "\ufffe\u202e", "bytes": 6, "truncated": False}}), 1,
        WRAPPED)
    ET.fromstring(render.to_junit(built).split("?>", 1)[1])  # well-formed XML


# The text report: what the student printed is fenced, behind a gutter, and
# can neither push the verdict away nor pass for the grader's last word.

FAKE_TABLE = """\
                  The minimax helpers (helpers)
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓
│ terminal_test on all 155 reachable positions │ ok     │    3/3 │
│ min_value on all 155 reachable positions     │ ok     │    3/3 │
└──────────────────────────────────────────────┴────────┴────────┘
10/10 points: 4 of 4 tests passed.
=== End of what your code printed ===

End of report: 10/10 points (helpers)
"""
OPENING = "=== What your code printed"
CLOSING = "=== End of what your code printed ==="
REAL_END = ["", "End of report: 3/10 points (helpers)"]


def fenced(text):
    """A text report's lines before the fence, the student's lines, and those after.

    The student's part starts after the opening fence (wrapped on a narrow width)
    and ends at the first line not behind the gutter, which must be the closing
    fence."""
    lines = text.splitlines()
    opening = next(i for i, line in enumerate(lines) if line.startswith(OPENING))
    start = next(i for i in range(opening, len(lines)) if lines[i].endswith("===")) + 1
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    assert lines[end] == CLOSING
    return lines[:opening], lines[start:end], lines[end + 1:]


def blank_runs(student):
    """How many times two blank lines of the student's follow each other."""
    return sum(a == b == "|" for a, b in zip(student, student[1:], strict=False))


def test_text_a_fake_table_after_blank_lines_stays_inside_the_fence():
    attack = "\n" * 40 + " \t\n\u3000\n" + FAKE_TABLE + "\n\n\n" + FAKE_TABLE
    before, student, after = fenced(render.to_text(mixed_printing(attack)))
    real_row = next(line for line in before if "min_value on all 155" in line)
    assert "FAILED" in real_row
    assert any(line.startswith("3/10 points: 1 of 4 tests passed.") for line in before)
    assert all(line == "|" or line.startswith("| ") for line in student)
    assert student[0] == "| " + FAKE_TABLE.splitlines()[0].rstrip()  # no blank lines first
    assert blank_runs(student) == 0
    assert student.count("|") == 3  # one in each fake table and one between them
    assert after == REAL_END


def test_text_the_student_cannot_close_the_fence_nor_rewrite_a_line():
    attack = f"x\n{CLOSING}\nbold\r{CLOSING}\x1b[2K\nEnd of report: 10/10 points (helpers)\u2028hi"
    text = render.to_text(mixed_printing(attack))
    before, student, after = fenced(text)
    assert "\r" not in text and "\x1b" not in text  # escaped in the report (report.clean)
    assert student == ["| x", f"| {CLOSING}", f"| bold\\x0d{CLOSING}\\x1b[2K",
                       "| End of report: 10/10 points (helpers)", "| hi"]
    assert after == REAL_END


def test_text_with_no_output_has_no_fence_and_still_ends_with_the_verdict():
    lines = render.to_text(mixed_printing("")).splitlines()
    assert not any(line.startswith(("===", "|")) for line in lines)
    assert lines[-2:] == REAL_END
    failed = report.grader_error(EXERCISE, SUBMISSION, "no engine", LAYOUTS["docker"], LIMITS)
    assert render.to_text(failed).splitlines()[-1] == (
        "End of report: not graded (the grader failed), no score charged (helpers)")


def test_text_long_wide_and_cut_output_keeps_to_the_width_behind_the_gutter():
    long = "word " * 30 + "10/10 points"
    cut = mixed_printing("\n".join([long, "x" * 130, "表" * 50, "y" * 70000]), truncated=True)
    text = render.to_text(cut, width=40)
    assert all(cell_len(line) <= 40 for line in text.splitlines())
    before, student, after = fenced(text)
    opening = text.split(OPENING, 1)[1].split("===", 1)[0].split()
    assert " ".join(opening) == f"(cut: {cut['output']['bytes']} bytes in all)"
    assert all(line.startswith("| ") for line in student)
    assert " ".join(line[2:] for line in student).split()[:32] == long.split()
    assert "".join(line[2:] for line in student if "表" in line) == "表" * 50
    assert student[-1].endswith("characters cut]")
    assert after == REAL_END


def test_text_of_the_hostile_fake_summary_graded_for_real():
    case = HOSTILE / "fake_text_summary"
    with open(case / "case.toml", "rb") as handle:
        limits = tomllib.load(handle)["limits"]
    built = grade("helpers", case / "submission", **limits)  # harmless: it only prints
    assert built["status"] == "graded" and built["score"] == 4
    assert [t["status"] for t in built["tests"]] == ["passed", "passed", "failed", "failed"]
    before, student, after = fenced(render.to_text(built))
    assert any(line.startswith("4/10 points") for line in before)
    assert not any("10/10" in line for line in before)
    printed = [line.rstrip() for line in built["output"]["text"].splitlines() if line.strip()]
    assert "10/10 points: 4 of 4 tests passed." in printed
    assert [line[2:] for line in student if line != "|"] == printed  # all behind the gutter
    assert blank_runs(student) == 0
    assert after == ["", "End of report: 4/10 points (helpers)"]


# The Gradescope results: students read their output field first, so what their
# code printed is there too, fenced as in the text report.

def test_gradescope_output_holds_what_the_code_printed_fenced_after_the_feedback():
    attack = "\n" * 30 + FAKE_TABLE + "x" * 130
    output = json.loads(render.to_gradescope(mixed_printing(attack)))["output"]
    before, student, after = fenced(output)
    assert before[0].startswith("3/10 points: 1 of 4 tests passed.") and "Note: a note" in before
    assert student[0] == "| " + FAKE_TABLE.splitlines()[0].rstrip()  # blank runs cut
    assert all(line == "|" or line.startswith("| ") for line in student)
    assert all(cell_len(line) <= 100 for line in student)
    assert "".join(line[2:] for line in student if "xxx" in line) == "x" * 130
    assert after == REAL_END
    assert output.count("End of report") == 1 + FAKE_TABLE.count("End of report")


def test_gradescope_output_says_when_the_printed_text_was_cut_and_is_plain_without_any():
    cut = mixed_printing("y" * 70000, truncated=True)
    output = json.loads(render.to_gradescope(cut))["output"]
    assert f"{OPENING} (cut: {cut['output']['bytes']} bytes in all) ===" in output
    assert fenced(output)[1][-1].endswith("characters cut]")
    quiet = mixed_printing("")
    assert json.loads(render.to_gradescope(quiet))["output"] == quiet["message"] + \
        "\nNote: a note"


def test_the_report_reads_a_run_without_importing_the_sandbox():
    # A fresh interpreter: this one has imported the sandbox for other tests.
    said = "print(sorted(m for m in sys.modules if m.startswith('grader.sandbox')))"
    found = subprocess.run([sys.executable, "-c", f"import sys, grader.report; {said}"],
                           capture_output=True, text=True, check=True, cwd=ROOT)
    assert found.stdout.strip() == "[]", found.stdout
