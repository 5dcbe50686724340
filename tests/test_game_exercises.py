"""The tic-tac-toe and Nim exercises: the trusted games and searches they
are judged against, and that each mistake of their corpora costs only the
tests of the behaviour it breaks."""

import contextlib
import importlib.util
import sys
from collections import Counter

import pytest
from conftest import corpus

from grader import solutions
from grader.games import isolation, kayles, nim, tictactoe, unfinished
from grader.games.nim import rules as nim_rules
from grader.games.tictactoe import rules as tictactoe_rules
from grader.harness.checking.fingerprints import fingerprint
from grader.harness.lesson import alphabeta
from grader.harness.lesson.known import known
from grader.harness.lesson.search import Search, values
from grader.harness.nim.search import Negamax, NegamaxFlaws
from grader.harness.tictactoe import search
from grader.harness.tictactoe.search import LabFlaws, LabSearch


def test_tic_tac_toe_has_the_lab_s_positions():
    positions = tictactoe.positions()
    assert len(positions) == 5478
    assert sum(not tictactoe.terminal(board) for board, _ in positions) == 4520
    for board, path in positions[::97]:  # each is reached by its own path
        replayed = tictactoe.start()
        for move in path:
            replayed = tictactoe.play(replayed, move)
        assert replayed == board


def test_the_full_trees_are_the_lab_s():
    assert search.full_tree(tictactoe.START)[0] == 549_946
    assert search.full_tree(tictactoe.play(tictactoe.START, (0, 0)))[0] == 59_705


@pytest.mark.parametrize("alpha_beta", [False, True])
def test_the_memoised_trees_are_those_a_search_walks(alpha_beta):
    """What the count test expects (memoised over the game) is what the lab's
    search, run on a board it changes in place, calls is_end on."""
    for board, _ in tictactoe.positions()[1::41]:
        if tictactoe.terminal(board):
            continue
        maximising = tictactoe.mark(board) == "O"
        run = LabSearch(alpha_beta=alpha_beta).run(board, maximising)
        expected = search.pruned_tree(board, maximising)[1:] if alpha_beta else \
            search.full_tree(board)
        assert (run.calls.total(), fingerprint(run.calls)) == expected
        assert run.answer[0] == search.value(board)
        assert run.answer[1:] in search.best_moves(board)
        assert run.after == board


def _plain(game):
    """The reference search on the game itself, not on its kept positions."""
    plain = Search(game=game)
    plain.game = game
    return plain


@pytest.mark.parametrize("game", [isolation, kayles], ids=["isolation", "kayles"])
def test_the_kept_positions_are_the_game_s(game):
    kept = known(game)
    for state, _ in game.positions():
        assert kept.legal_moves(state) == game.legal_moves(state)
        assert (kept.terminal(state), kept.label(state), kept.key(state)) == \
            (game.terminal(state), game.label(state), game.key(state))
        for move in game.legal_moves(state):
            child = kept.play(state, move)
            assert kept.key(child) == game.key(game.play(state, move))
            assert kept.play(state, move) is child  # played once


@pytest.mark.parametrize("game", [isolation, kayles], ids=["isolation", "kayles"])
def test_searches_on_the_kept_positions_answer_as_on_the_game(game):
    """The reference decision's terminal tests (in the same order) and moves,
    the memoised values, and the best moves that alpha-beta finds, are those
    of a plain search on the game itself, at every depth and to the end."""
    cases = [(state, depth) for state, _ in unfinished(game)[::3]
             for depth in (None, 0, 1, 2, 3, 4, 5, 6)]
    cases += [(state, depth) for state, _ in game.larger("depth") for depth in (1, 2, 3)]
    cases += [(state, None) for state, _ in game.larger("decision")]
    for state, depth in cases:
        calls, moves = _plain(game).decision(state, depth)
        kept_calls, kept_moves = Search(game=game).decision(state, depth)
        assert (kept_calls, kept_moves) == (calls, moves)
        assert list(kept_calls) == list(calls)
        assert alphabeta.best_moves(state, depth, game) == moves
    for state, _ in game.positions()[::2]:  # finished ones too: the helpers ask there
        for depth in (None, 0, 1, 3):
            for name in ("min_value", "max_value"):
                value = getattr(_plain(game), name)(state, depth)
                assert getattr(values(game), name)(state, depth) == value
                assert type(getattr(values(game), name)(state, depth)) is type(value)


def _negamax(case):
    sys.modules.setdefault("nim", nim_rules)  # what a student's negamax.py imports
    spec = importlib.util.spec_from_file_location(f"negamax_{case}",
                                                  corpus("nim_negamax") / case / "negamax.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.minimax


def test_the_published_negamax_bug_is_modelled_and_in_the_corpus():
    """At 6 coins and depth 6 it takes 1 coin and calls it a loss; 2 wins."""
    game = nim.Nim(6)
    assert Negamax().search(game, "A", 6)[:2] == (2, nim.WINNING_VALUE)
    bug = (1, nim.LOSING_VALUE)
    assert Negamax(NegamaxFlaws(overwritten=True)).search(game, "A", 6)[:2] == bug
    assert tuple(_negamax("rating_overwritten")(game, "A", 6, nim.score)) == bug


@pytest.mark.parametrize(("case", "flaws"), [
    ("last_tie_kept", NegamaxFlaws(keeps_last=True)),
    ("score_opponent_negated", NegamaxFlaws(score_opponent_negated=True)),
])
def test_the_negamax_mistakes_of_real_files_are_modelled(case, flaws):
    """The model gives what the corpus's file gives, where the reference differs."""
    student, model = _negamax(case), Negamax(flaws)
    games = [(nim.Nim(coins), player, depth) for coins in range(13) for player in "AB"
             for depth in range(1, 6)]
    for game in games:
        assert tuple(student(*game, nim.score)) == model.search(*game)[:2], game
    assert any(model.search(*game)[:2] != Negamax().search(*game)[:2] for game in games)


def _lab(exercise, case):
    """The corpus file's ``Game`` class, its is_end counting the boards it is called on."""
    spec = importlib.util.spec_from_file_location(
        f"lab_{exercise}_{case}", corpus(exercise) / case / "tictactoe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    class Counted(module.Game):
        def is_end(self):
            self.calls[tictactoe_rules.label(self.current_state)] += 1
            return super().is_end()

    return Counted


@pytest.mark.parametrize(("exercise", "case", "flaws"), [
    ("tic_tac_toe", "max_keeps_first_value", LabFlaws(first_child_value=True, only="max")),
    ("tic_tac_toe_alphabeta", "window_passed_swapped", LabFlaws(window_swapped=True)),
    ("tic_tac_toe_alphabeta", "cutoff_before_undo", LabFlaws(prune_before_undo=True, only="max")),
    ("tic_tac_toe_alphabeta", "is_end_three_times", LabFlaws(is_end_each_test=True, only="min")),
    ("tic_tac_toe_alphabeta", "no_pruning_full_window",
     LabFlaws(no_pruning=True, window_reset=True)),
])
def test_the_lab_mistakes_of_real_files_are_modelled(exercise, case, flaws):
    """The model gives the corpus file's answers, board afterwards and is_end
    calls (the file's own max and min, both), and differs from the lab's search."""
    alpha_beta = exercise.endswith("alphabeta")
    game = _lab(exercise, case)()
    differs = False
    for board, _ in tictactoe.positions()[2::61]:
        if tictactoe.terminal(board):
            continue
        maximising = tictactoe.mark(board) == "O"
        game.current_state, game.calls = tictactoe_rules.rows(board), Counter()
        name = ("max" if maximising else "min") + ("_alpha_beta" if alpha_beta else "")
        answer = getattr(game, name)(*search.FULL_WINDOW) if alpha_beta else getattr(game, name)()
        model = LabSearch(flaws, alpha_beta).run(board, maximising)
        assert (answer, tictactoe_rules.label(game.current_state), game.calls) == \
            (model.answer, model.after, model.calls), board
        lab = LabSearch(alpha_beta=alpha_beta).run(board, maximising)
        differs = differs or (lab.answer, lab.after, lab.calls) != \
            (model.answer, model.after, model.calls)
    assert differs


# mistake -> the tests it may fail: those of the behaviour it breaks
FAIR = {
    "tic_tac_toe": {
        "is_end_missing_row": {"test_is_end"},
        "is_end_missing_column": {"test_is_end"},
        "is_end_missing_diagonal": {"test_is_end"},
        "tie_before_win": {"test_is_end"},
        # the search: its values and moves, and the boards it visits
        "marks_swapped": {"test_max", "test_min", "test_is_end_calls"},
        "values_wrong_side": {"test_max", "test_min"},
        "best_move_first_child": {"test_max", "test_min"},
        "first_child_value": {"test_max", "test_min"},
        "mark_not_put_back": {"test_max", "test_min", "test_is_end_calls"},
        "search_cut_short": {"test_is_end_calls"},
        "is_end_called_twice": {"test_is_end_calls"},
    },
    "tic_tac_toe_alphabeta": {
        "prune_on_strict": {"test_is_end_calls"},
        "window_not_passed": {"test_is_end_calls"},
        "no_pruning": {"test_is_end_calls"},
        "wrong_bound_updated": {"test_max_alpha_beta", "test_min_alpha_beta",
                                "test_is_end_calls"},
        # a window back to front prunes where it must not: values go wrong too
        "window_swapped": {"test_max_alpha_beta", "test_min_alpha_beta", "test_is_end_calls"},
        "prune_before_undo": {"test_max_alpha_beta", "test_min_alpha_beta",
                              "test_is_end_calls"},
        "is_end_called_twice": {"test_is_end_calls"},
        "no_cutoff_at_bound": {"test_is_end_calls"},
        # a prune against the wrong bound cuts where it must not: values go wrong too
        "cutoff_before_bound": {"test_max_alpha_beta", "test_min_alpha_beta",
                                "test_is_end_calls"},
    },
    "nim_negamax": {
        # a rating mistake shows on Nim; the other games don't charge it again
        "rating_not_negated": {"test_moves_and_ratings"},
        "rating_overwritten": {"test_moves_and_ratings"},
        "last_tie_kept": {"test_moves_and_ratings"},
        "same_player_searched": {"test_moves_and_ratings", "test_calls"},
        "score_for_opponent": {"test_depth_zero", "test_moves_and_ratings"},
        "win_loss_swapped": {"test_game_over", "test_moves_and_ratings"},
        "depth_not_decremented": {"test_moves_and_ratings", "test_calls"},
        "no_hand_over": {"test_stuck_player_passes"},
        "hard_coded_nim": {"test_other_games", "test_stuck_player_passes"},
        "moves_not_all_tried": {"test_moves_and_ratings", "test_calls"},
        "depth_zero_not_scored": {"test_depth_zero", "test_moves_and_ratings", "test_calls"},
    },
}
CASES = [case for case in solutions.built_in()
         if case.exercise in FAIR and case.mistakes - {"stub"}]


@pytest.mark.parametrize("case", CASES, ids=[case.label for case in CASES])
def test_each_mistake_costs_only_its_own_tests(case, graded_locally):
    report = graded_locally(case)
    allowed = set().union(*(FAIR[case.exercise][m] for m in case.mistakes))
    failed = {t["name"] for t in report["tests"] if t["status"] != "passed"}
    assert failed and failed <= allowed, failed - allowed


def test_every_game_has_its_kit_of_stand_ins():
    from grader.games import GAMES
    from grader.harness.runtime import standins

    for game in GAMES:
        assert standins.kit(game).stand_ins
    # Any other game is of the lesson's kind (an instructor's, say): the lesson's
    # kit plays its rules, sent as source; exercises.load refuses an unknown name.
    assert standins.kit("chess").sources(()) == ("grader.games.tree.rules",
                                                 "grader.games.chess.rules")


def test_nim_s_counting_games_label_as_the_game_does_whatever_their_attributes():
    """The Nim kit looks a game's label up once it has worked it out: each
    tally line is still the one ``label`` gives, with the game's attributes
    equal but of another type (3.0, True), or unhashable, as the student's
    code may set them."""
    from grader.games.nim import variants
    from grader.harness.runtime.standins import nim as kit

    lines: list[bytes] = []
    trusted = kit.load("", [], {kit.RULES: nim_rules, kit.VARIANTS: variants})
    convert, _ = kit.arguments(trusted, lines.append)
    score = convert(["score"])
    for coins in (3, 3.0, True, 1, [3], 3):
        game = convert(["game", "nim", 5, ["A", "B"], None])
        game.coins = coins
        score(game, "A")
        with contextlib.suppress(ValueError, TypeError):  # Nim's own check of the pile
            game.move("A", 1)
        label = variants.label(game).encode()
        assert lines == [b"t s " + label + b"\n", b"t m A|" + label + b"|1\n"], coins
        lines.clear()


def test_tictactoe_descends_is_the_plain_definition_on_every_board():
    """Each board a search entered is checked with ``descends``: its quicker form
    (the root's marked cells worked out once) answers as the definition does,
    for roots at every stage, on every legal board and on what is no board."""
    empty = tictactoe_rules.EMPTY
    boards = [board for board, _ in tictactoe.positions()]
    roots = boards[::97] + ["XO.OX.X.O", "X" * 9]

    def plain(root, label):
        return (len(label) == len(root) == 9 and label.count(empty) < root.count(empty)
                and all(mark in (empty, there) for mark, there in zip(root, label, strict=True)))

    for root in roots:
        for label in [*boards, "?", "X" * 10, "", "XO.OX.X.Z"]:
            assert tictactoe.descends(root, label) == plain(root, label), (root, label)
    assert sum(tictactoe.descends(roots[0], label) for label in boards) == len(boards) - 1
