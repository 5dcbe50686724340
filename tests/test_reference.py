"""The trusted game and search agree with the facts of the lesson."""

import pytest

from grader.contracts.hints import HINTS
from grader.games import isolation
from grader.games.isolation.flawed_rules import GAME_MODELS
from grader.harness.checking import mistakes
from grader.harness.lesson.search import Search

ROOT = isolation.new_game()
POSITIONS = isolation.reachable(ROOT)


def test_the_game_has_155_reachable_positions():
    assert len(POSITIONS) == 155
    assert len({isolation.key(s) for s, _ in POSITIONS}) == 155


def test_start_has_five_open_cells_and_the_corner_blocked():
    assert sorted(ROOT.get_legal_moves()) == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]


def test_positions_come_smallest_first():
    lengths = [len(path) for _, path in POSITIONS]
    assert lengths == sorted(lengths)
    assert POSITIONS[0][1] == ()


@pytest.mark.parametrize("depth, calls", [(None, 224), (1, 5), (2, 25), (3, 77)])
def test_terminal_test_counts_from_the_empty_board(depth, calls):
    assert Search().decision(ROOT, depth)[0].total() == calls


def test_empty_board_values_and_best_moves():
    search = Search()
    assert search.min_value(ROOT) == -1
    assert search.best_moves(ROOT) == {(0, 0), (2, 0), (0, 1)}


def test_forecast_move_leaves_the_parent_alone():
    child = ROOT.forecast_move((0, 0))
    assert ROOT.get_legal_moves() != child.get_legal_moves()
    assert ROOT._player_locations == [None, None] and ROOT._parity == 0
    assert child._player_locations == [(0, 0), None] and child._parity == 1


def test_a_slide_stops_at_closed_cells_and_the_other_player():
    state = ROOT.replay([(0, 0), (1, 0)])
    assert sorted(state.get_legal_moves()) == [(0, 1), (1, 1)]


def test_state_data_round_trip():
    for state, _ in POSITIONS:
        assert isolation.key(isolation.from_data(isolation.to_data(state))) == isolation.key(state)


@pytest.mark.parametrize("mistake, flaws", mistakes.SEARCH_MODELS,
                         ids=[m for m, _ in mistakes.SEARCH_MODELS])
def test_every_search_model_differs_from_the_reference(mistake, flaws):
    """A model identical to the reference could never be diagnosed."""
    flawed, reference = Search(flaws), Search()
    differs = any(  # outcome: an unfinished function's None stops a model
        flawed.outcome("min_value", s, d) != reference.min_value(s, d)
        or flawed.outcome("decision", s, d) != reference.decision(s, d)
        for s, _ in POSITIONS if s.get_legal_moves() for d in (None, 1, 2, 3)
    )
    assert differs, mistake


def _answers(game):
    def moves(path):
        try:
            return tuple(sorted(game.replay(path).get_legal_moves()))
        except Exception as exc:  # the model's code fails there, as the student's does
            return type(exc).__name__

    return tuple(moves(path) for _, path in POSITIONS)


def test_every_game_model_differs_from_the_reference_and_from_other_mistakes():
    """Two models of different mistakes that answer alike everywhere could only
    ever be named together."""
    seen = {_answers(ROOT): "the reference"}
    for model in GAME_MODELS:
        answers = _answers(model.game)
        assert seen.get(answers, model.mistake) == model.mistake, (model.says, seen[answers])
        seen[answers] = model.mistake


def test_every_model_names_a_known_mistake():
    for mistake in [m for m, _ in mistakes.SEARCH_MODELS] + [m.mistake for m in GAME_MODELS]:
        assert mistake in HINTS



def test_larger_board_decision_positions_tell_right_from_wrong():
    from grader.games.isolation import suite_positions as positions

    chosen = positions.large(positions.LARGE_DECISION_PATHS)
    search = Search()
    outside = 0
    for state, path in chosen:
        best = search.best_moves(state)
        assert len(best) < len(state.get_legal_moves()), path
        outside += all(x == 3 or y == 2 for x, y in best)
    assert outside >= 3


def test_larger_board_depth_positions_tell_right_from_wrong():
    from grader.games.isolation import suite_positions as positions

    chosen = positions.large(positions.LARGE_DEPTH_PATHS)
    assert chosen[0][1] == ()
    search = Search()
    for state, path in chosen[1:]:
        for depth in (2, 3):
            assert len(search.best_moves(state, depth)) < len(state.get_legal_moves()), path


def test_isolation_under_the_game_interface_plays_by_the_lesson():
    from grader.games import isolation

    start = isolation.start()
    assert isolation.key(start) == isolation.key(isolation.new_game())
    assert isolation.positions()[0][1] == () and len(isolation.positions()) == 155
    finished = 0
    for state, path in isolation.positions():
        assert isolation.key(isolation.start().replay(path)) == isolation.key(state)
        assert isolation.terminal(state) is (not state.get_legal_moves())
        for move in isolation.legal_moves(state):
            assert isolation.key(isolation.play(state, move)) == isolation.key(
                state.forecast_move(move))
        if isolation.terminal(state):
            finished += 1
            mover = isolation.to_move(state)  # stuck: lost, and the other player won
            assert (isolation.utility(state, mover), isolation.utility(state, 1 - mover)) == (-1, 1)
    assert finished > 0
    assert {model.mistake for model in isolation.flawed()} >= {"no_diagonals", "one_step"}
