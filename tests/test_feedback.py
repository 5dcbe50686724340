"""Feedback a student can act on: what the report says about common slips
that are not mistakes of the game or the search."""

from conftest import built_in_case, grade, solution


def failing(report):
    return {t["name"]: t for t in report["tests"] if t["status"] != "passed"}


def test_an_import_of_a_misspelt_lesson_module_suggests_the_right_one(submission):
    source = (solution("helpers") / "minimax_helpers.py").read_text()
    report = grade("helpers", submission("minimax_helpers.py", "import GameState\n" + source))
    assert report["score"] == 0
    assert "No module named 'GameState'" in report["message"]
    assert "did you mean `gamestate`?" in report["message"]


def test_a_misspelt_name_gets_the_one_the_files_define(submission):
    """A name imported from a provided module, a function the suite calls and a
    function called inside the student's code: each suggests what is there."""
    source = (solution("helpers") / "minimax_helpers.py").read_text()
    imported = grade("helpers", submission("minimax_helpers.py",
                                           "from gamestate import Gamestate\n" + source))
    assert "cannot import name 'Gamestate'" in imported["message"]
    assert "did you mean `GameState`?" in imported["message"]
    renamed = source.replace("def min_value(", "def minValue(").replace(
        "min_value(gameState.forecast_move", "minValue(gameState.forecast_move")
    report = grade("helpers", submission("minimax_helpers.py", renamed))
    assert "no function or class named min_value (did you mean `minValue`?)" in \
        failing(report)["test_min_value"]["message"]
    called = source.replace("if terminal_test(gameState):", "if terminal_Test(gameState):")
    report = grade("helpers", submission("minimax_helpers.py", called))
    assert "NameError: name 'terminal_Test' is not defined (did you mean `terminal_test`?)" in \
        failing(report)["test_max_value"]["message"]


def test_an_import_failure_is_told_once_not_in_every_test(submission):
    report = grade("helpers", submission("minimax_helpers.py", "def min_value(:\n"))
    messages = [t["message"] for t in report["tests"]]
    assert "syntax error on line 1" in messages[0]
    assert all("could not be imported" in m and "syntax" not in m for m in messages[1:])
    assert [t["mistakes"] for t in report["tests"]][1:] == [[]] * (len(messages) - 1)
    assert "syntax error on line 1" in report["message"]


def test_a_file_that_imports_itself_is_told_so(submission):
    source = (solution("decision") / "minimax.py").read_text()
    source = source.replace("from minimax_helpers import", "from minimax import")
    assert "from minimax import" in source
    report = grade("decision", submission("minimax.py", source))
    assert report["score"] == 0
    said = "minimax.py imports itself (`from minimax import *`)"
    assert any(said in note and "from minimax_helpers import *" in note
               for note in report["notes"])
    assert said in failing(report)["test_empty_board"]["message"]


def test_a_forecast_that_returns_no_state_is_named_with_its_call(submission):
    source = (solution("gamestate") / "gamestate.py").read_text()
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


def test_a_call_stopped_at_its_time_limit_is_shown_with_its_depth_and_position(submission):
    source = (solution("alphabeta") / "alphabeta.py").read_text()
    source = source.replace('''def alpha_beta_search(gameState, depth):
''', '''def alpha_beta_search(gameState, depth):
    while depth == 3:
        pass
''')
    report = grade("alphabeta", submission("alphabeta.py", source), call_seconds=2)
    test = failing(report)["test_call_counts"]
    assert test["status"] == "timeout"
    said, drawn = test["message"].split(" on this position:\n\n")
    assert said.endswith("time limit reached while running alpha_beta_search(state, 3)")
    assert drawn.splitlines()[0].split() == ["x=0", "x=1", "x=2"]
    assert "to move" in drawn
    assert test["board"]["columns"] == ["x=0", "x=1", "x=2"]  # the page's table


def test_a_lab_call_stopped_at_its_time_limit_is_shown_with_its_board(submission):
    source = (solution("tic_tac_toe_alphabeta") / "tictactoe.py").read_text()
    start = "    def max_alpha_beta(self, alpha, beta):\n"
    # endless once X holds a corner and O the centre: found below the empty board
    source = source.replace(start, start + "        while self.current_state[0][0] == 'X' and "
                            "self.current_state[1][1] == 'O':\n            pass\n")
    report = grade("tic_tac_toe_alphabeta", submission("tictactoe.py", source), call_seconds=2)
    test = failing(report)["test_max_alpha_beta"]
    assert test["status"] == "timeout"
    said, drawn = test["message"].split(" on this position:\n\n")
    assert said.endswith("time limit reached while running max_alpha_beta(-2, 2)")
    assert drawn.splitlines()[0].split() == ["col", "0", "1", "2"]
    assert "O to move" in drawn


def test_a_window_not_passed_down_in_min_value_alone_is_one_story(graded_locally):
    """min_value hands its children (-inf, inf), max_value passes its window on:
    each board of the count test, and every test that names a mistake, tells
    the same one in the same words; the class's summary counts it once."""
    from grader.batch.summary import diagnosed
    from grader.contracts.hints import HINTS
    from grader.harness.checking.checks import UNKNOWN

    # The corpus case's report, graded once for the run (tests/test_corpus.py judges it too).
    report = graded_locally(built_in_case("alphabeta/window_reset_in_min_only"))
    named = [t for t in report["tests"] if t["mistakes"]]
    assert named and all(t["mistakes"] == ["window_reset"] for t in named)
    assert {t["hint"] for t in named} == {HINTS["window_reset"]}
    message = failing(report)["test_call_counts"]["message"]
    # the small board, the large one and the large one's deeper positions
    assert message.count("is wrong on") == 3
    assert UNKNOWN not in message
    assert diagnosed(report) == ["window_reset"]


def test_a_story_told_once_is_told_again_where_it_fits():
    """Where two mistakes fit a test's answers, the one the report named in an
    earlier test is named alone: one diagnosis, in the same words."""
    from grader.harness.checking.checks import Observation
    from grader.harness.checking.mistakes import Story, diagnose

    answers = [Observation(None, (), answer, answer == 0) for answer in (0, 1, 1)]
    models = [("first", 1), ("second", 1), ("third", 2)]

    def fits(model, observation):
        return float(observation.ok or observation.answer == model)

    story = Story()
    assert diagnose(models, fits, answers, story=story) == ["first", "second"]
    later = Story()
    later.tell(["second"])
    assert diagnose(models, fits, answers, story=later) == ["second"]
    assert diagnose([("third", 2)], fits, answers, story=later) == []
    # where the story told does not fit, the model that does is named
    other = [Observation(None, (), answer, answer == 0) for answer in (0, 2)]
    assert diagnose(models, fits, other, story=later) == ["third"]
    assert later.told == ["second", "third"]


def test_where_no_model_gives_the_answers_the_report_says_what_the_code_did(graded_locally):
    """A window passed wrong in max_value (its own value as alpha), which no
    model gives: the count test says where, from the trace, with its hint,
    and does not end "no mistake the grader knows"."""
    from grader.contracts.hints import HINTS
    from grader.harness.checking.checks import UNKNOWN

    report = graded_locally(built_in_case("alphabeta/max_passes_its_value"))
    test = failing(report)["test_call_counts"]
    assert "What your code does:" in test["message"]
    assert "passes the positions after its moves another window" in test["message"]
    assert UNKNOWN not in test["message"]
    assert test["mistakes"] == ["window_passed_wrong"]
    assert test["hint"] == HINTS["window_passed_wrong"]
