"""The tic-tac-toe mistake models keep what they found (``LabSearch``): one
model, run on position after position as a diagnosis runs it, answers as the
corpus's real files do on each, and as a fresh search of its own does."""

from collections import Counter

import pytest
from test_game_exercises import _lab

from grader.games import tictactoe
from grader.games.tictactoe import rules
from grader.harness.tictactoe import checks
from grader.harness.tictactoe.search import NO_FLAWS, LabFlaws, LabSearch

# The positions a diagnosis runs the models on, spread, fewest marks first;
# then the same in the other order (a board's search then comes before its
# parent's, which finds it kept).
SMALL = [board for board, _ in tictactoe.positions()
         if not tictactoe.terminal(board) and 9 - board.count(".") >= checks.DIAGNOSED_FROM][::3]
ORDERS = {"fewest marks first": SMALL, "most marks first": SMALL[::-1]}


def _function(board: str, alpha_beta: bool) -> tuple[str, bool]:
    maximising = tictactoe.mark(board) == "O"
    return ("max" if maximising else "min") + ("_alpha_beta" if alpha_beta else ""), maximising


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize(("exercise", "case", "flaws"), [
    ("tic_tac_toe", "correct_lab_style", NO_FLAWS),
    ("tic_tac_toe", "mark_not_put_back", LabFlaws(mark_not_put_back=True, only="max")),
    ("tic_tac_toe", "marks_swapped", LabFlaws(marks_swapped=True)),
    ("tic_tac_toe", "values_wrong_side", LabFlaws(values_wrong_side=True)),
    ("tic_tac_toe", "search_cut_short", LabFlaws(stop_at_win=True)),
    ("tic_tac_toe", "is_end_called_twice", LabFlaws(is_end_twice=True)),
    ("tic_tac_toe_alphabeta", "correct_lab_style", NO_FLAWS),
    ("tic_tac_toe_alphabeta", "prune_on_strict", LabFlaws(strict_prune=True)),
    ("tic_tac_toe_alphabeta", "wrong_bound_updated", LabFlaws(bounds_swapped=True)),
    ("tic_tac_toe_alphabeta", "cutoff_before_undo", LabFlaws(prune_before_undo=True, only="max")),
], ids=lambda value: value if isinstance(value, str) else "")
def test_a_model_kept_over_positions_answers_as_the_real_file(order: str, exercise: str,
                                                              case: str, flaws: LabFlaws
                                                              ) -> None:
    """The file's answer, board afterwards and is_end calls on every position,
    its functions called one position after the other; the model, one search
    for them all (a board kept from one position is found again in the next)."""
    alpha_beta = exercise.endswith("alphabeta")
    game = _lab(exercise, case)()  # type: ignore[no-untyped-call]
    model = LabSearch(flaws, alpha_beta)
    for board in ORDERS[order]:
        name, maximising = _function(board, alpha_beta)
        game.current_state, game.calls = rules.rows(board), Counter()
        answer = getattr(game, name)(-2, 2) if alpha_beta else getattr(game, name)()
        kept = model.run(board, maximising)
        assert (answer, rules.label(game.current_state), game.calls) == \
            (kept.answer, kept.after, kept.calls), board


MODELS = sorted({(flaws, side) for _, flaws in checks.SEARCH_MODELS + checks.CALL_MODELS
                 + checks.PRUNING_MODELS for side in (None, "max", "min")}, key=repr)


@pytest.mark.parametrize("alpha_beta", [False, True], ids=["plain", "alpha-beta"])
def test_every_model_kept_over_positions_answers_as_a_fresh_one(alpha_beta: bool) -> None:
    """Each model of the suites, in one function or both, run by the grader
    (one search a model for the grading) on position after position, gives
    what a search of its own gives on each; the runs it hands out are its
    own (changing one changes nothing kept)."""
    for flaws, side in MODELS:
        model = LabFlaws(**{**vars(flaws), "only": side})
        for board in SMALL[::4]:
            name, maximising = _function(board, alpha_beta)
            kept = checks._model(model, alpha_beta, name, board)
            fresh = LabSearch(model, alpha_beta).run(board, maximising)
            assert (kept.answer, kept.after, kept.calls) == \
                (fresh.answer, fresh.after, fresh.calls), (model, board)
            kept.calls.clear()
            assert checks._model(model, alpha_beta, name, board).calls == fresh.calls
