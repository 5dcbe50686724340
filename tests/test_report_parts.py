"""A failed check's position as a board: read off the game's drawing in the
harness, carried by the event, kept by the report, and cut into the parts a page
shows (text, the board with its summary in words, the named values)."""

import pytest

from grader import exercises, intake, report, report_parts
from grader.contracts import events
from grader.contracts.run import Run
from grader.games import isolation, kayles, tictactoe
from grader.harness.checking import checks
from grader.harness.checking.boards import grid
from grader.harness.runtime.verdict import Mismatch
from grader.layouts import LAYOUTS

EXERCISE = exercises.load("helpers")
SUBMISSION = intake.Submission({"minimax_helpers.py": b"x = 1\n"})


@pytest.mark.parametrize("game", [isolation, tictactoe, kayles], ids=lambda g: g.__name__)
def test_every_position_of_a_grid_game_reads_back_as_its_board(game):
    for state, _ in game.positions():
        board = grid(game.draw(state))
        assert board is not None, game.draw(state)
        assert all(len(row["cells"]) == len(board["columns"]) for row in board["rows"])
        assert board["drawn"] == game.draw(state)


def test_an_isolation_board_keeps_the_games_labels_and_marks():
    state = isolation.start().forecast_move((1, 0))
    assert grid(isolation.draw(state)) == {
        "columns": ["x=0", "x=1", "x=2"],
        "rows": [{"label": "y=0", "cells": [".", "1", "."]},
                 {"label": "y=1", "cells": [".", ".", "#"]}],
        "note": "player 2 to move", "drawn": isolation.draw(state)}


def test_a_drawing_that_is_no_grid_gives_no_board():
    assert grid("Nim (whoever takes the last coin wins): Nim(5, last=None), A to move") is None
    assert grid("node 3, player 2 to move") is None
    assert grid("header\nthis row is words\nnote") is None


def failed(positions, wrong_at, draw=isolation.draw):
    """The Mismatch of a check whose answer is wrong on position ``wrong_at``."""
    observations = [checks.Observation(state, path, 1, i != wrong_at)
                    for i, (state, path) in enumerate(positions)]
    observations[wrong_at].expected = "-1"
    with pytest.raises(Mismatch) as raised:
        checks.verdict("min_value", observations, lambda found: ["flipped_utilities"],
                       draw=draw)
    return raised.value


def test_a_failed_check_carries_the_board_its_message_draws():
    mismatch = failed(isolation.positions()[:6], 3)
    assert mismatch.board == grid(isolation.draw(isolation.positions()[3][0]))
    assert mismatch.board["drawn"] in mismatch.message


def test_a_check_on_a_position_that_is_no_grid_carries_none():
    mismatch = failed(isolation.positions()[:2], 1, draw=lambda state: "a sentence")
    assert mismatch.board is None and "a sentence" in mismatch.message


def built(*sent):
    passed = [{"event": "test", "name": t.name, "status": "passed", "message": "",
               "mistakes": []} for t in EXERCISE.tests if t.name != "test_min_value"]
    run = Run("local", EXERCISE.limits.facts(), [*sent, *passed])
    made = report.build(EXERCISE, SUBMISSION, run, 1, LAYOUTS["bubblewrap"])
    return next(t for t in made["tests"] if t["name"] == "test_min_value")


def event_of(mismatch, **board):
    return events.verdict("test_min_value", "failed", mismatch.message, mismatch.mistakes,
                          False, 1, {**mismatch.board, **board} if mismatch.board else None)


def test_the_report_keeps_a_whole_board_per_test_and_stays_valid():
    mismatch = failed(isolation.positions()[:6], 3)
    test = built(event_of(mismatch))
    assert test["board"] == mismatch.board
    assert test["message"] == mismatch.message  # the text report keeps the drawing


@pytest.mark.parametrize("forged", [
    {"drawn": "not in the message"},
    {"columns": ["x=0"]},  # rows of three cells under one column
    {"rows": "no rows"},
    {"note": 7},
    {"columns": [f"x={i}" for i in range(21)]},
    {"rows": [{"label": "y=0", "cells": [".", ".", "."], "script": "<b>"}] * 21},
])
def test_a_board_that_is_not_whole_is_left_out(forged):
    test = built(event_of(failed(isolation.positions()[:6], 3), **forged))
    assert "board" not in test and test["status"] == "failed"


def test_the_page_shows_text_the_board_in_words_and_the_named_values():
    mismatch = failed(isolation.positions()[:6], 3)
    parts = report_parts.parts(built(event_of(mismatch)))
    assert [part["kind"] for part in parts] == ["text", "board", "values"]
    assert parts[0]["text"].startswith("min_value is wrong on 1 of 6 positions")
    board = parts[1]
    assert board["summary"] == ("Board 3 x 2, player 2 to move. y=0: empty, player 1, empty. "
                                "y=1: empty, empty, closed.")
    assert [cell["word"] for cell in board["rows"][1]["cells"]] == ["empty", "empty", "closed"]
    assert parts[2]["values"] == [("expected", "-1"), ("got", "1")]
    # Nothing is left out: the parts hold every word of the message but the drawing's.
    told = " ".join(p.get("text", "") + " ".join(f"{n}: {v}" for n, v in p.get("values", []))
                    for p in parts)
    assert told.split() == mismatch.message.replace(mismatch.board["drawn"], "").split()


def test_a_message_with_no_board_is_text_and_values():
    message = ("The call minimax(Nim(5), 'A', 2, score) is wrong:\n\nNim(5), A to move\n\n"
               "depth: 2\nexpected: 3\ngot:      -3\nyour search went on past depth 2")
    parts = report_parts.parts({"message": message})
    assert [part["kind"] for part in parts] == ["text", "text", "values", "text"]
    assert parts[2]["values"] == [("depth", "2"), ("expected", "3"), ("got", "-3")]
    assert parts[3]["text"] == "your search went on past depth 2"


def test_a_tic_tac_toe_board_reads_its_marks_and_a_row_with_no_label_is_numbered():
    board = grid(tictactoe.draw("X.O......"))
    assert report_parts.summary(board).startswith("Board 3 x 3, X to move. row 0: X, empty, O.")
    pins = grid(kayles.draw(kayles.start()))
    assert report_parts.summary(pins).split(". ")[1].startswith("row 1: I, I")
