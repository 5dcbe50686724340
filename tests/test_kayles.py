"""Kayles, the game added as one folder: its rules, the positions its suites
ask about, and the lesson's searches on it (the exercises declared for it
are graded by the corpus, tests/test_corpus.py -k kayles)."""

import ast
import importlib.util
from pathlib import Path

import pytest

from grader import exercises, games
from grader.games import GAMES, kayles, unfinished
from grader.harness.lesson import deepening
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.search import Search
from grader.harness.runtime import standins

RULES = Path(kayles.__file__).with_name("rules.py")


def suite_positions(exercise: str) -> list:
    """The positions an exercise's suite asks about (its ``POSITIONS``)."""
    suite = exercises.load(exercise).suite
    path = next(suite.glob("test_*.py"))
    spec = importlib.util.spec_from_file_location(f"suite_{exercise}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.POSITIONS


def test_a_move_knocks_down_one_pin_or_two_neighbours_and_the_stuck_player_loses():
    start = kayles.start()
    assert kayles.legal_moves(start) == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3),
                                         (3, 3), (3, 4), (4, 4), (4, 5), (5, 5)]
    after = kayles.play(start, (2, 3))
    assert after._pins == [1, 1, 0, 0, 1, 1] and start._pins == [1] * 6
    assert kayles.to_move(after) == 1
    assert (1, 2) not in kayles.legal_moves(after)  # pin 2 is down
    with pytest.raises(RuntimeError):
        after.forecast_move((2, 2))
    over = start.replay([(0, 1), (2, 3), (4, 5)])
    assert kayles.terminal(over) and kayles.utility(over, 1) == -1
    assert kayles.utility(over, 0) == 1


def test_positions_are_every_reachable_one_smallest_first_each_reached_by_its_path():
    positions = kayles.positions()
    assert len(positions) == 107 and len(unfinished(kayles)) == 105
    assert positions[0] == (positions[0][0], ()) and positions[0][0]._pins == [1] * 6
    assert len({kayles.key(state) for state, _ in positions}) == 107
    for state, path in positions:
        assert kayles.key(kayles.start().replay(path)) == kayles.key(state)
    assert [len(path) for _, path in positions] == sorted(len(path) for _, path in positions)


def test_a_position_crosses_to_the_worker_and_back_and_is_drawn():
    state = kayles.start().replay([(1, 2)])
    assert kayles.key(kayles.from_data(kayles.to_data(state))) == kayles.key(state)
    assert kayles.draw(state) == "pin  0 1 2 3 4 5\n     I . . I I I\nplayer 2 to move"


def test_descends_follows_the_moves_and_refuses_what_is_no_label():
    root = kayles.start().replay([(0, 0)])
    child = root.forecast_move((3, 4))
    assert kayles.descends(kayles.label(root), kayles.label(child))
    assert not kayles.descends(kayles.label(child), kayles.label(root))
    assert not kayles.descends(kayles.label(root), kayles.label(root))
    other_row = kayles.new_game(kayles.LARGE_ROW).replay([(0, 0), (5, 5)])
    assert not kayles.descends(kayles.label(root), kayles.label(other_row))
    assert not kayles.descends(kayles.label(root), "not a label")


@pytest.mark.parametrize("kind, depths", [("decision", [None]), ("depth", [2, 3])])
def test_the_nine_pin_positions_catch_code_written_for_six(kind, depths):
    """In each, the best moves are fewer than the legal ones, and some best move
    knocks down a pin past the six-pin row."""
    for state, _ in kayles.larger(kind):
        for depth in depths:
            best = Search(game=kayles).best_moves(state, depth)
            assert len(best) < len(kayles.legal_moves(state)), (kind, state._pins, depth)
        assert any(last >= 6 for _, last in best), (kind, state._pins)


def test_the_lesson_s_searches_count_on_kayles():
    start = kayles.start()
    minimax = [Search(game=kayles).decision(start, depth)[0].total() for depth in (1, 2, 3)]
    pruned = [AlphaBeta(game=kayles).decision(start, depth)[0].total() for depth in (1, 2, 3)]
    assert (minimax, pruned) == ([11, 93, 471], [11, 30, 100])  # as the READMEs say
    assert Search(game=kayles).best_moves(start) == {(1, 1), (2, 3), (4, 4)}


def test_the_rules_import_nothing_as_they_run_in_the_worker_from_their_source():
    tree = ast.parse(RULES.read_text(encoding="utf-8"))
    assert not [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert "grader.games.kayles.rules" in standins.kit("kayles").sources(frozenset())


def test_every_game_loads_by_name_and_has_its_stand_ins():
    for name in GAMES:
        assert games.load(name).__name__ == f"grader.games.{name}"
        assert standins.kit(name).stand_ins
    with pytest.raises(ValueError):
        games.load("chess")


def test_the_exercises_declared_for_kayles_name_it():
    declared = [e for e in exercises.load_all() if e.game == "kayles"]
    assert {e.id for e in declared} == {"kayles_helpers", "kayles_decision",
                                        "kayles_depth_limit", "kayles_alphabeta",
                                        "kayles_iterative_deepening"}
    assert all("kayles" in e.provides for e in declared)


def test_the_deepening_budgets_on_kayles_finish_the_same_depths_whatever_the_threshold():
    """The clock's budgets come from the reference alpha-beta on Kayles (11, 30,
    100 ... terminal tests from the full row), and the reference finishes depths
    1 to d and no more with the smallest threshold a student may choose, the
    largest and one between; every depth 1 to 6 is asked, on every position of
    the suite (the row of nine one pin down among them)."""
    assert deepening.counts(kayles.start(), kayles)[:3] == (11, 30, 100)
    asked = set()
    positions = suite_positions("kayles_iterative_deepening")
    assert len(positions) > len(unfinished(kayles) + kayles.larger("depth"))
    for state, _ in positions:
        for budget, depth in deepening.budgets(state, kayles):
            asked.add(depth)
            for threshold in deepening.THRESHOLDS:
                run = deepening.deepen(state, budget, threshold, game=kayles)
                assert run.finished == list(range(1, depth + 1)), (state._pins, budget, threshold)
    assert asked == set(range(7))
