"""The lesson's names: a module, function or class named with the wrong case or a
near spelling gets the name that is there, read from the files themselves."""

import pytest

from grader.harness.runtime.names import Lesson, defined, nearest


@pytest.fixture
def lesson(tmp_path):
    submission, provided = tmp_path / "submission", tmp_path / "provided"
    submission.mkdir()
    provided.mkdir()
    (provided / "gamestate.py").write_text(
        "WIDTH = 3\n\nclass GameState:\n    def forecast_move(self, move):\n        pass\n\n"
        "    def get_legal_moves(self):\n        return []\n")
    (submission / "minimax.py").write_text(
        "from gamestate import *\n\ndef minValue(state):\n    return 0\n\n"
        "def max_value(state):\n    return 0\n\nclass Game:\n    def is_end(self):\n"
        "        pass\n")
    return Lesson(submission, ["minimax"], provided, ["gamestate"])


@pytest.mark.parametrize("asked, meant", [
    ("GameState", "gamestate"), ("Gamestate", "gamestate"), ("game_state", "gamestate"),
    ("gamestates", "gamestate"), ("gamesatte", "gamestate"), ("Minimax", "minimax"),
    ("gamestat", "gamestate"), ("isolation", None), ("numpy", None),
])
def test_a_module_not_found_is_matched_by_case_and_near_spelling(lesson, asked, meant):
    assert lesson.meant("ModuleNotFoundError", f"No module named '{asked}'") == meant


def test_a_name_imported_from_a_module_is_matched_among_its_own_names(lesson):
    message = "cannot import name 'Gamestate' from 'gamestate' (/somewhere/gamestate.py)"
    assert lesson.meant("ImportError", message) == "GameState"
    assert lesson.meant("AttributeError",
                        "module 'gamestate' has no attribute 'gameState'") == "GameState"
    assert lesson.meant("ImportError", "cannot import name 'Board' from 'gamestate'") is None


def test_an_undefined_name_is_matched_among_functions_only(lesson):
    assert lesson.meant("NameError", "name 'min_value' is not defined") == "minValue"
    assert lesson.meant("NameError", "name 'isEnd' is not defined") == "is_end"
    # a variable of the wrong case is more likely a parameter than the class
    assert lesson.meant("NameError", "name 'gameState' is not defined") is None
    assert lesson.meant("TypeError", "name 'min_value' is not defined") is None


def test_a_missing_function_is_matched_in_its_module(lesson):
    assert lesson.missing("minimax", "min_value") == "minValue"
    assert lesson.missing("minimax", "max_value") is None  # it is there: nothing to suggest
    assert lesson.missing("other", "min_value") is None


def test_a_file_that_does_not_parse_defines_nothing(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n")
    assert defined(tmp_path / "broken.py") == []
    assert defined(tmp_path / "absent.py") == []


def test_nearest_never_offers_the_name_itself_or_a_far_one():
    assert nearest("min_value", ["min_value", "max_value"]) is None
    assert nearest("minvalue", ["min_value", "max_value"]) == "min_value"
    assert nearest("terminal", ["terminal_test"]) is None


def test_a_slip_is_one_letter_added_dropped_changed_or_two_swapped():
    from grader.harness.runtime.names import one_slip

    assert one_slip("gamestate", "gamestates") and one_slip("gamestates", "gamestate")
    assert one_slip("gamestate", "gamestote") and one_slip("gamestate", "gamesatte")
    assert not one_slip("minvalue", "maxvalue")  # two letters changed: another name
    assert not one_slip("gamestate", "gamestate") and not one_slip("abc", "cab")
    assert nearest("max_alpha_beta", ["min_alpha_beta"]) is None
