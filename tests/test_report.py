"""Reports: built from untrusted events, always schema-valid, errors never zeros."""

import json
import xml.etree.ElementTree as ET

import jsonschema
import pytest

from grader import exercises, intake, render, report
from grader.sandbox import Run

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
    built = report.build(EXERCISE, SUBMISSION, run(*all_passed(), {"event": "end"}), 12)
    assert built["status"] == "graded"
    assert built["score"] == built["max_score"] == 10
    assert built["message"].startswith("10/10 points: 4 of 4 tests passed")


def test_hints_come_from_mistake_ids_not_from_the_sandbox():
    event = {"event": "test", "name": "test_min_value", "status": "failed", "message": "wrong",
             "mistakes": ["flipped_utilities", "made_up"], "hint": "forged hint"}
    built = report.build(EXERCISE, SUBMISSION, run(event), 1)
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
    built = report.build(EXERCISE, SUBMISSION, run(*forged), 1)
    assert built["status"] == "error" and built["score"] is None
    assert [t["name"] for t in built["tests"]] == [t.name for t in EXERCISE.tests]


def test_first_event_for_a_test_wins():
    failed = {"event": "test", "name": "test_max_value", "status": "failed", "message": "no"}
    events = [e for e in all_passed() if e["name"] != "test_max_value"]
    built = report.build(EXERCISE, SUBMISSION, run(failed, *events, passed("test_max_value")), 1)
    assert built["score"] == 7


def test_a_run_stopped_at_its_time_limit_charges_the_unfinished_tests():
    built = report.build(EXERCISE, SUBMISSION, run(passed("test_terminal_test"), timed_out=True), 1)
    assert built["status"] == "graded" and built["score"] == 3
    assert [t["status"] for t in built["tests"]] == ["passed", "timeout", "timeout", "timeout"]
    assert "stopped at its time limit" in built["message"]


def test_a_grader_failure_is_an_error_with_no_score():
    internal = {"event": "test", "name": "test_min_value", "status": "error",
                "message": "internal grader error: KeyError", "internal": True}
    built = report.build(EXERCISE, SUBMISSION, run(internal), 1)
    assert built["status"] == "error" and built["score"] is None
    assert "No score was charged" in built["message"]
    crashed = report.build(EXERCISE, SUBMISSION, run(exit_code=-9), 1)
    assert crashed["status"] == "error"


def test_the_student_output_is_escaped_and_capped():
    session = {"event": "session", "output": {
        "text": "\x1b[31mred\x00 \ud800 done\n" + "x" * 70000, "bytes": 70030, "truncated": True}}
    built = report.build(EXERCISE, SUBMISSION, run(*all_passed(), session), 1)
    text = built["output"]["text"]
    assert text.startswith("\\x1b[31mred\\x00 \\ud800 done\n")
    assert "characters cut" in text and len(text) < 66000
    json.dumps(built, ensure_ascii=False).encode("utf-8")  # valid UTF-8 throughout


def test_the_schema_rejects_a_zero_for_an_error_and_unknown_fields():
    built = report.grader_error(EXERCISE, SUBMISSION, "no engine", "docker", LIMITS)
    assert built["status"] == "error" and built["score"] is None
    for bad in ({**built, "score": 0}, {**built, "extra": 1},
                {**built, "tests": [{**built["tests"][0], "status": "skipped"}]}):
        with pytest.raises(jsonschema.ValidationError):
            report.validate(bad)


def test_rejected_submission_is_graded_zero_with_the_reason():
    built = report.rejected(EXERCISE, "minimax_helpers.py is empty", LIMITS)
    assert built["status"] == "graded" and built["score"] == 0
    assert built["submission"]["rejected"] == "minimax_helpers.py is empty"
    assert "rejected: minimax_helpers.py is empty" in built["message"]


@pytest.fixture
def mixed():
    events = [passed("test_terminal_test"),
              {"event": "test", "name": "test_min_value", "status": "failed",
               "message": "min_value is wrong <&>", "mistakes": ["flipped_utilities"]},
              {"event": "test", "name": "test_max_value", "status": "timeout",
               "message": "time limit"},
              {"event": "test", "name": "test_min_value_empty_board", "status": "error",
               "message": "raised ValueError"},
              {"event": "session", "output": {"text": "hi [bold]x[/bold]\n", "bytes": 22,
                                              "truncated": False},
               "notes": ["a note"]}]
    return report.build(EXERCISE, SUBMISSION, run(*events), 1500)


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
        "event": "session", "output": {"text": "\ufffe\u202e", "bytes": 6, "truncated": False}}), 1)
    ET.fromstring(render.to_junit(built).split("?>", 1)[1])  # well-formed XML
