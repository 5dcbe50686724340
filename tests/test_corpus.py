"""The corpus: reference solutions get full marks; each known mistake loses
marks and is named; correct submissions in other styles get full marks.

The expectations live beside each case in ``expect.toml``; the same judge
serves ``minimax-grader check-solutions``.
"""

import pytest

from grader import exercises, solutions

CASES = solutions.built_in()


def test_the_corpus_is_large_and_covers_every_exercise():
    corpus = [case for case in CASES if not case.reference]
    assert len(corpus) >= 40
    for exercise in exercises.known(kind=exercises.SUITE):
        correct = [c for c in corpus if c.exercise == exercise and c.full_marks]
        assert len(correct) >= 2, exercise


def test_every_known_mistake_has_a_case():
    from grader.contracts.hints import HINTS

    named = {mistake for case in CASES for mistake in case.mistakes}
    # Reaching into the grader is the hostile corpus's to show (tests/hostile/reach_*).
    assert set(HINTS) - named == {"changed_grader"}


@pytest.mark.parametrize("case", CASES, ids=[case.label for case in CASES])
def test_case(case, graded_locally):
    report = graded_locally(case)
    assert solutions.problems_of(case, report) == []


RULES = ("test_start_position", "test_first_moves", "test_legal_moves_everywhere",
         "test_slides_are_blocked")
FORECAST = ("test_forecast_returns_new_state", "test_forecast_leaves_parent_unchanged")
ALL_GAMESTATE = RULES + ("test_moves_are_a_list_of_tuples",) + FORECAST
# mistake -> (the tests it may fail, words the message or hint of a test naming it holds)
FAIR = {
    "blocked_cell_missing": (RULES, "no blocked cell"),
    "wrong_cell_blocked": (RULES, "instead of (2, 1)"),
    "players_placed_at_start": (RULES, "starts with player 1 already on"),
    "xy_swapped": (RULES, "come out as (y, x)"),
    "board_transposed": (RULES, "2 wide and 3 tall"),
    "location_read_as_yx": (RULES, "location as (y, x)"),
    "slides_through_closed": (RULES, "jump over closed cells"),
    "no_diagonals": (RULES, "never go diagonally"),
    "direction_missing": (RULES, "your moves never go"),
    "direction_doubled": (RULES, "come out twice"),
    "direction_replaced": (RULES, "come out twice"),
    "turn_not_handed_over": (RULES, "the player who just moved"),
    "cell_left_open": (RULES, "leaves is open again"),
    "one_step": (RULES, "like a king"),
    "closed_cell_offered": (RULES, "a closed cell"),
    "move_off_board": (RULES, "off the board"),
    "not_a_queen_move": (RULES, "on no row, column or diagonal"),
    "jumps_closed_cell": (RULES, "which is closed, on the way from"),
    "move_repeated": (RULES, "times"),
    "open_cell_missing": (RULES, "an open cell"),
    "legal_move_missing": (RULES, "it leaves out"),
    "moves_not_list": (("test_moves_are_a_list_of_tuples",), "not a list"),
    "move_not_tuple": (("test_moves_are_a_list_of_tuples",), "lists [x, y]"),
    "forecast_returns_self": (FORECAST, "returned the very state it was called on"),
    "forecast_not_a_state": (RULES[1:] + FORECAST, "where a GameState is due"),
    "forecast_mutates": (("test_forecast_leaves_parent_unchanged",), "parent's legal moves"),
    "shallow_copy": (("test_forecast_leaves_parent_unchanged",), "shares"),
    "shared_class_board": (RULES[1:] + ("test_forecast_leaves_parent_unchanged",),
                           "changed a fresh GameState()"),
    "stub": (ALL_GAMESTATE, "starter stub"),
    "syntax_error": (ALL_GAMESTATE, "syntax error"),
    "import_crash": (ALL_GAMESTATE, "raised"),
}
GAMESTATE_CASES = [c for c in CASES if c.exercise == "gamestate" and c.mistakes]


@pytest.mark.parametrize("case", GAMESTATE_CASES, ids=[c.label for c in GAMESTATE_CASES])
def test_each_mistake_is_charged_once_with_its_own_hint(case, graded_locally):
    """A mistake fails only the tests of the behaviour it breaks, and every test
    that names it says what the student's code does."""
    report = graded_locally(case)
    allowed = {test for mistake in case.mistakes for test in FAIR[mistake][0]}
    failed = {t["name"] for t in report["tests"] if t["status"] != "passed"}
    assert failed <= allowed, failed - allowed
    for test in report["tests"]:
        for mistake in test["mistakes"]:
            assert FAIR[mistake][1] in test["message"] + (test["hint"] or ""), (test["name"],
                                                                               mistake)


def test_the_fairness_table_covers_every_mistake_of_the_game():
    from grader.games.isolation.flawed_rules import GAME_MODELS

    assert {m.mistake for m in GAME_MODELS} <= set(FAIR)
    assert {m for c in GAMESTATE_CASES for m in c.mistakes} <= set(FAIR)
