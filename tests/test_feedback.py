"""Feedback a student can act on: what the report says about common slips
that are not mistakes of the game or the search."""

from conftest import SOLUTIONS, grade


def failing(report):
    return {t["name"]: t for t in report["tests"] if t["status"] != "passed"}


def test_an_import_of_a_misspelt_lesson_module_suggests_the_right_one(submission):
    source = (SOLUTIONS / "helpers" / "minimax_helpers.py").read_text()
    report = grade("helpers", submission("minimax_helpers.py", "import GameState\n" + source))
    assert report["score"] == 0
    assert "No module named 'GameState'" in report["message"]
    assert "did you mean `gamestate`?" in report["message"]


def test_an_import_failure_is_told_once_not_in_every_test(submission):
    report = grade("helpers", submission("minimax_helpers.py", "def min_value(:\n"))
    messages = [t["message"] for t in report["tests"]]
    assert "syntax error on line 1" in messages[0]
    assert all("could not be imported" in m and "syntax" not in m for m in messages[1:])
    assert [t["mistakes"] for t in report["tests"]][1:] == [[]] * (len(messages) - 1)
    assert "syntax error on line 1" in report["message"]


def test_a_file_that_imports_itself_is_told_so(submission):
    source = (SOLUTIONS / "decision" / "minimax.py").read_text()
    source = source.replace("from minimax_helpers import", "from minimax import")
    assert "from minimax import" in source
    report = grade("decision", submission("minimax.py", source))
    assert report["score"] == 0
    said = "minimax.py imports itself (`from minimax import *`)"
    assert any(said in note and "from minimax_helpers import *" in note
               for note in report["notes"])
    assert said in failing(report)["test_empty_board"]["message"]


def test_a_forecast_that_returns_no_state_is_named_with_its_call(submission):
    source = (SOLUTIONS / "gamestate" / "gamestate.py").read_text()
    lines = source.splitlines()
    # forecast_move gives False for a move of the second player: the first
    # moves work, anything deeper finds no state.
    start = next(i for i, line in enumerate(lines) if "def forecast_move" in line)
    lines.insert(start + 1, "        if self._parity == 1:\n            return False")
    report = grade("gamestate", submission("gamestate.py", "\n".join(lines) + "\n"))
    message = failing(report)["test_legal_moves_everywhere"]["message"]
    assert "returned False, where a GameState is due" in message
    assert "bool object" not in message
    assert "forecast_not_a_state" in failing(report)["test_forecast_returns_new_state"]["mistakes"]
