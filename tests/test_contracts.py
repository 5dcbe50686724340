"""The contracts at the trust boundary, on their own."""

import pytest

from grader.contracts import events, hints, job


def test_a_message_capped_by_the_supervisor_keeps_its_count_when_the_host_caps_it():
    once = events.capped("x" * 9000)
    assert once == "x" * events.MESSAGE_CAP + f"... [{9000 - events.MESSAGE_CAP} characters cut]"
    assert events.capped(once) == once
    # Text after the note is no note: it is cut again.
    assert events.capped(once + "y").endswith(f"... [{len(once) + 1 - events.MESSAGE_CAP} "
                                              "characters cut]")
    assert events.capped("short") == "short"


def test_a_verdict_takes_only_the_report_s_statuses_and_caps_its_message():
    made = events.verdict("test_x", "failed", "m" * 10_000, ["flipped_utilities"], False, 3)
    assert len(made["message"]) < 10_000 and made["event"] == "test"
    with pytest.raises(ValueError):
        events.verdict("test_x", "excellent", "", [], False, 0)


def test_the_host_keeps_only_well_formed_events():
    lines = "\n".join([events.line(events.start("test_a")).strip(), "not json", "[1, 2]",
                       '{"event": "test", "name": 7, "status": "passed"}',
                       events.line(events.verdict("test_a", "passed", "", [], False, 1)).strip(),
                       events.line(events.verdict("test_a", "failed", "", [], False, 1)).strip()])
    parsed = events.parse(lines)
    assert len(parsed) == 4  # the two lines that are no JSON object are dropped
    assert events.verdicts(parsed)["test_a"]["status"] == "passed"  # the first of a name
    assert list(events.verdicts(parsed)) == ["test_a"]
    assert events.running(parsed, {"test_a"}) == "test_a"
    assert events.running(parsed, {"test_b"}) is None
    assert events.first(parsed, "session") == {}


def test_every_hint_is_text_and_unknown_ids_are_told():
    assert hints.HINTS and all(isinstance(t, str) and t for t in hints.HINTS.values())
    assert hints.unknown(["flipped_utilities", "made_up"]) == ["made_up"]


def test_a_job_reads_back_as_written(tmp_path):
    written: job.Job = {
        "exercise": "helpers", "suite": "/s", "submission": "/w/submission",
        "provided": "/w/provided", "provides": ["gamestate"], "modules": ["minimax_helpers"],
        "limits": {"call_seconds": 1.0, "test_seconds": 2.0, "total_seconds": 3.0,
                   "output_bytes": 4, "memory_mb": 5, "address_space_mb": 0, "processes": 6,
                   "file_bytes": 7},
        "tests": {"test_a": {"seconds": 1.5}, "test_b": {}},
    }
    assert job.read(job.write(written, tmp_path)) == written
    assert job.dumps(written).decode() == (tmp_path / job.FILE).read_text()
