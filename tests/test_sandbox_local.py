"""The local sandbox keeps its limits and its report, whatever the student does.

It is no security boundary (docs/security.md says so); these tests show that the
limits hold and that a misbehaving submission still gets a fair, valid report.
"""

import time

from conftest import grade, solution

HELPERS = (solution("helpers") / "minimax_helpers.py").read_text()


def by_name(report):
    return {test["name"]: test for test in report["tests"]}


def test_an_endless_loop_fails_only_its_own_test(submission):
    folder = submission("minimax_helpers.py", HELPERS.replace(
        "def terminal_test(gameState):\n", "def terminal_test(gameState):\n    while True: pass\n"))
    # A call limit well above the honest calls' (under 1 s on a loaded machine).
    report = grade("helpers", folder, call_seconds=4)
    tests = by_name(report)
    assert tests["test_terminal_test"]["status"] == "timeout"
    assert "time limit" in tests["test_terminal_test"]["message"]
    # min_value and max_value run on the trusted terminal_test: not charged again
    assert tests["test_min_value"]["status"] == "passed"
    assert report["score"] == 7


def test_the_whole_run_is_stopped_at_its_limit(submission):
    folder = submission("minimax_helpers.py", "import time\n" + HELPERS.replace(
        "def terminal_test(gameState):\n", "def terminal_test(gameState):\n    time.sleep(1)\n"))
    started = time.monotonic()
    report = grade("helpers", folder, total_seconds=3)
    assert time.monotonic() - started < 10
    assert report["status"] == "graded" and report["sandbox"]["timed_out"]
    assert "stopped at its time limit of 3 s" in report["message"]
    assert by_name(report)["test_terminal_test"]["status"] == "timeout"


def test_a_hang_at_import_is_charged_once(submission):
    folder = submission("minimax_helpers.py", "import time\ntime.sleep(60)\n" + HELPERS)
    started = time.monotonic()
    report = grade("helpers", folder)
    assert time.monotonic() - started < 20
    assert report["score"] == 0
    assert "time limit reached while importing your files" in report["message"]


def test_a_memory_hog_is_told_it_ran_out_of_memory(submission):
    folder = submission("minimax_helpers.py", HELPERS.replace(
        "def terminal_test(gameState):\n",
        "def terminal_test(gameState):\n    hog = bytearray(4 << 30)\n"))
    report = grade("helpers", folder)
    test = by_name(report)["test_terminal_test"]
    assert test["status"] == "failed"
    assert "raised MemoryError (it ran out of memory)" in test["message"]
    assert report["score"] == 7


def test_an_output_flood_is_capped(submission):
    folder = submission("minimax_helpers.py", "print('#' * 20_000_000)\n" + HELPERS)
    report = grade("helpers", folder)
    assert report["score"] == 10
    output = report["output"]
    assert output["truncated"] and output["bytes"] > 20_000_000
    assert len(output["text"]) <= 16384


def test_printed_fake_results_change_nothing(submission):
    fake = ('import json\nfor name in ("test_min_value", "test_max_value"):\n'
            '    print(json.dumps({"event": "test", "name": name, "status": "passed"}))\n')
    wrong = HELPERS.replace("return 1\n", "return -1\n", 1)
    report = grade("helpers", submission("minimax_helpers.py", fake + wrong))
    assert by_name(report)["test_min_value"]["status"] == "failed"
    assert '"status": "passed"' in report["output"]["text"]


def test_the_environment_is_scrubbed(submission, monkeypatch):
    monkeypatch.setenv("GRADER_TEST_SECRET", "do-not-leak-4711")
    folder = submission("minimax_helpers.py", "import os\nprint(dict(os.environ))\n" + HELPERS)
    report = grade("helpers", folder)
    assert "do-not-leak-4711" not in str(report)
    assert "PATH" in report["output"]["text"]


def test_exiting_at_import_is_a_crash_at_import(submission):
    folder = submission("minimax_helpers.py", "import sys\nsys.exit(0)\n" + HELPERS)
    report = grade("helpers", folder)
    assert report["score"] == 0
    assert "raised SystemExit" in report["message"]
    assert {m for t in report["tests"] for m in t["mistakes"]} == {"import_crash"}


def test_exiting_inside_a_call_costs_that_test_only(submission):
    folder = submission("minimax_helpers.py", "import os\n" + HELPERS.replace(
        "def terminal_test(gameState):\n", "def terminal_test(gameState):\n    os._exit(0)\n"))
    report = grade("helpers", folder)
    tests = by_name(report)
    assert tests["test_terminal_test"]["status"] == "error"
    assert "ended its process with exit code 0" in tests["test_terminal_test"]["message"]
    assert report["score"] == 7
