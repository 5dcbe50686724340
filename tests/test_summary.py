"""summary.json and grades.csv, made from the students' reports."""

import csv
import io

import jsonschema
import pytest

from grader import exercises, intake, report
from grader.batch import summary
from grader.layouts import LAYOUTS
from grader.sandbox import Run

EXERCISE = exercises.load("helpers")  # tests worth 3, 1, 3 and 3 points
SUBMISSION = intake.Submission({"minimax_helpers.py": b"x = 1\n"})


def graded(*failing, mistakes=()):
    """A real report in which the tests named ``failing`` failed."""
    events = [{"event": "test", "name": t.name,
               "status": "failed" if t.name in failing else "passed", "message": "wrong",
               "mistakes": list(mistakes) if t.name in failing else []}
              for t in EXERCISE.tests]
    run = Run(backend="local", limits=EXERCISE.limits.facts(), events=events)
    return report.build(EXERCISE, SUBMISSION, run, 10, LAYOUTS["bubblewrap"])


def error():
    return report.grader_error(EXERCISE, SUBMISSION, "the engine went away", LAYOUTS["bubblewrap"],
                               EXERCISE.limits.facts())


def rejected():
    return report.rejected(EXERCISE, "minimax_helpers.py is missing", EXERCISE.limits.facts())


CLASS = {
    "ann": graded(),
    "bob": graded("test_min_value", "test_max_value", mistakes=["flipped_utilities"]),
    "cy": graded("test_min_value", mistakes=["flipped_utilities", "recursion_swapped"]),
    "=cmd|' /C calc'!A0": rejected(),
    "dan": error(),
    "eve": None,
}


def test_counts_scores_and_tests():
    made = summary.summarize(EXERCISE, CLASS, "local", ["README.txt"], [["ann", "fay"]])
    assert made["counts"] == {"students": 6, "graded": 4, "full_marks": 1, "rejected": 1,
                              "errors": 1, "pending": 1}
    assert [made["scores"][k] for k in ("mean", "median", "min", "max")] == [5.25, 5.5, 0, 10]
    min_value = next(t for t in made["tests"] if t["name"] == "test_min_value")
    # the rejected student counts as graded (0 points), but its tests never ran: they
    # are counted apart, neither an error nor in the pass rate
    assert (min_value["passed"], min_value["failed"], min_value["error"],
            min_value["rejected"]) == (1, 2, 0, 1)
    assert min_value["pass_rate"] == round(1 / 3, 4)
    assert made["ignored"] == ["README.txt"] and made["identical"] == [["ann", "fay"]]
    assert made["regrade"] == [{"student": "dan", "reason": CLASS["dan"]["message"]}]


def test_mistakes_most_common_first_with_their_students():
    made = summary.summarize(EXERCISE, CLASS, "local")
    # cy's one test found two mistakes fitting equally well: counted once, as either
    assert [(m["id"], m["count"], m["students"]) for m in made["mistakes"]] == [
        ("flipped_utilities", 1, ["bob"]), ("flipped_utilities or recursion_swapped", 1, ["cy"])]
    assert made["mistakes"][0]["hint"].startswith("Your terminal values are the wrong way round")
    assert made["mistakes"][1]["either"] == ["flipped_utilities", "recursion_swapped"]
    assert made["mistakes"][1]["hint"].startswith("Either: Your terminal values")


def test_a_mistake_named_alone_settles_an_either():
    sure = graded("test_min_value", mistakes=["flipped_utilities"])
    sure["tests"][-1]["mistakes"] = ["flipped_utilities", "recursion_swapped"]
    made = summary.summarize(EXERCISE, {"ann": sure}, "local")
    assert [(m["id"], m["students"]) for m in made["mistakes"]] == [("flipped_utilities", ["ann"])]
    assert made["students"][0]["mistakes"] == ["flipped_utilities"]


def test_histogram_has_a_bin_per_point_and_holds_every_graded_score():
    made = summary.summarize(EXERCISE, CLASS, "local")
    bins = made["scores"]["histogram"]
    assert [(b["low"], b["high"]) for b in bins] == [(s, s + 1) for s in range(11)]
    assert {b["low"]: b["count"] for b in bins if b["count"]} == {0: 1, 4: 1, 7: 1, 10: 1}


@pytest.mark.parametrize("max_score, width, count", [(12, 1, 13), (40, 2, 21), (100, 5, 21)])
def test_wide_scales_get_wider_bins(max_score, width, count):
    bins = summary._histogram([max_score, 0], max_score)
    assert len(bins) == count and bins[0]["high"] == width
    assert bins[-1]["count"] == 1 and bins[0]["count"] == 1


def test_pending_students_and_an_empty_class():
    made = summary.summarize(EXERCISE, {"eve": None}, "docker")
    assert made["scores"]["mean"] is None and made["tests"][0]["pass_rate"] is None
    assert made["students"][0] == {
        "student": "eve", "status": "pending", "score": None, "max_score": 10,
        "message": "not graded yet", "mistakes": [], "rejected": False, "tests": {},
        "report": None, "text": None, "page": None}


def test_the_summary_schema_refuses_what_it_does_not_know():
    made = summary.summarize(EXERCISE, CLASS, "local")
    made["counts"]["surprise"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(made, summary.schema())


def test_gradebook_rows_columns_and_no_formulas():
    made = summary.summarize(EXERCISE, CLASS, "local")
    rows = list(csv.reader(io.StringIO(summary.gradebook(EXERCISE, made))))
    assert rows[0] == ["student", "score", "max_score", "status", "test_terminal_test",
                       "test_min_value_empty_board", "test_min_value", "test_max_value",
                       "message"]
    by_student = {row[0]: row[1:] for row in rows[1:]}
    assert by_student["ann"][:-1] == ["10", "10", "graded", "3", "1", "3", "3"]
    assert by_student["bob"][:-1] == ["4", "10", "graded", "3", "1", "0", "0"]
    assert by_student["dan"][:-1] == ["", "10", "error", "", "", "", ""]
    assert by_student["eve"] == ["", "10", "pending", "", "", "", "", "not graded yet"]
    # a spreadsheet must show this student's id, not run it
    assert by_student["'=cmd|' /C calc'!A0"][:-1] == ["0", "10", "rejected", "0", "0", "0", "0"]


def test_the_gradebook_tells_a_rejection_from_a_wrong_submission():
    made = summary.summarize(EXERCISE, {"ann": rejected(), "bob": graded(
        *(t.name for t in EXERCISE.tests), mistakes=["flipped_utilities"])}, "local")
    rows = {row["student"]: row for row in
            csv.DictReader(io.StringIO(summary.gradebook(EXERCISE, made)))}
    assert (rows["ann"]["score"], rows["bob"]["score"]) == ("0", "0")
    assert (rows["ann"]["status"], rows["bob"]["status"]) == ("rejected", "graded")
    assert rows["ann"]["message"] == ("0/10 points: the submission was rejected: "
                                      "minimax_helpers.py is missing")
    assert rows["bob"]["message"].startswith("0/10 points: 0 of 4 tests passed.")


def test_the_message_column_is_one_line_and_never_a_formula():
    for message in ("=HYPERLINK(\"http://x\")", "-1 points?\nline two", "@SUM(A1)"):
        one = rejected()
        one["message"] = message
        made = summary.summarize(EXERCISE, {"ann": one}, "local")
        [row] = csv.DictReader(io.StringIO(summary.gradebook(EXERCISE, made)))
        assert row["message"] == "'" + " ".join(message.split())


LONG = "a" * 300 + "\u00e9" * 100  # longer than any file name may be


def test_a_long_student_id_is_kept_whole_in_the_data_and_cut_for_files_and_display():
    made = summary.summarize(EXERCISE, {LONG: graded(), "ann": graded()}, "local")
    row = next(r for r in made["students"] if r["student"] == LONG)
    name = row["report"].removeprefix("reports/")
    assert len(name.encode()) <= 130 and name.startswith("a" * 50) and name.endswith(".json")
    assert row["text"] == row["report"].removesuffix(".json") + ".txt"
    assert row["page"] == row["report"].removesuffix(".json") + ".html"
    # ids that differ only past the cut get files of their own
    other = summary.report_file(LONG[:-1] + "b", "json")
    assert other != row["report"] and other[:-30] == row["report"][:-30]
    assert summary.report_file("ann", "json") == "reports/ann.json"
    shown = summary.shown_id(LONG)
    assert shown.startswith("a" * summary.SHOWN_ID_CHARS) and shown.endswith("characters cut]")
    assert summary.shown_id("ann") == "ann"
    [csv_row] = [r for r in csv.DictReader(io.StringIO(summary.gradebook(EXERCISE, made)))
                 if r["student"] != "ann"]
    assert csv_row["student"] == LONG
