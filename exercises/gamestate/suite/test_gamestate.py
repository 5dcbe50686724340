"""The gamestate exercise: the student's own GameState class.

Every reachable position is reached by replaying the trusted game's move
sequences on the student's class, from a fresh ``GameState()`` each time.
"""

from collections import Counter

import pytest

from grader.harness import checks, isolation, mistakes
from grader.harness.flawed_game import FlawedGame
from grader.harness.probes import GameProbe
from grader.harness.wire import Foreign

POSITIONS = isolation.reachable(isolation.new_game())
FIRST_MOVES = [(s, p) for s, p in POSITIONS if len(p) <= 1]
# Positions where a slide that ignored closed cells would find more moves.
BLOCKED = [
    (s, p) for s, p in POSITIONS
    if set(FlawedGame(through_closed=True).replay(p).get_legal_moves()) != set(s.get_legal_moves())
]


@pytest.fixture
def game(student):
    return GameProbe(student)


def items(answer):
    """The moves in an answer of any collection type, or None."""
    if type(answer) in (list, tuple, set, frozenset):
        return list(answer)
    if isinstance(answer, Foreign) and answer.items is not None:
        return answer.items
    return None


def same_moves(expected, answer, multiset=False):
    got = items(answer)
    if got is None or not all(checks.is_move(m) for m in got):
        return False
    if multiset:
        return Counter(got) == Counter(expected)
    return set(got) == set(expected)


def moves_text(moves):
    return "the moves " + ", ".join(f"({x}, {y})" for x, y in sorted(moves))


def shared_board(game):
    """Whether playing on one state changes a fresh one (a class-level board)."""
    steps = game.steps()
    steps.play(steps.new(), (0, 0))
    fresh = steps.moves(steps.new())
    steps.run()
    return not same_moves(isolation.new_game().get_legal_moves(), fresh.value)


def diagnose_moves(game, observations):
    def reproduces(model, observation):
        return same_moves(model.replay(observation.path).get_legal_moves(),
                          observation.answer, multiset=True)

    found = mistakes.diagnose(mistakes.GAME_MODELS, reproduces, observations)
    if not found and shared_board(game):
        found = ["shared_class_board"]
    return found


def ask_moves(game, positions):
    return game.ask(positions, lambda steps, state, path: steps.moves(steps.replay(path)))


def check_legal_moves(game, positions, what="get_legal_moves"):
    observations = checks.collect(
        positions, ask_moves(game, positions),
        lambda s, answer: same_moves(s.get_legal_moves(), answer),
        lambda s: moves_text(s.get_legal_moves()))
    checks.verdict(what, observations, lambda found: diagnose_moves(game, found))


def test_start_position(game):
    check_legal_moves(game, POSITIONS[:1], "get_legal_moves at the start (5 open cells, "
                                           "(2, 1) blocked)")


def test_first_moves(game):
    check_legal_moves(game, FIRST_MOVES, "get_legal_moves before a player's first move")


def test_legal_moves_everywhere(game):
    check_legal_moves(game, POSITIONS)


def test_slides_are_blocked(game):
    check_legal_moves(game, BLOCKED, "get_legal_moves where closed cells block a slide")


def test_moves_are_a_list_of_tuples(game):
    def plain(state, answer):
        return (type(answer) is list and all(checks.is_move(m) for m in answer)
                and len(set(answer)) == len(answer))

    def diagnose(observations):
        answer = checks.wrong(observations)[0].answer
        if type(answer) is list and all(checks.is_move(m) for m in answer):
            return diagnose_moves(game, observations)  # a move comes out twice
        return ["moves_not_list"]

    observations = checks.collect(
        POSITIONS, ask_moves(game, POSITIONS), plain,
        lambda s: f"a list of (x, y) tuples, each once: {sorted(s.get_legal_moves())!r}")
    checks.verdict("The type of get_legal_moves' answer", observations, diagnose)


def test_forecast_returns_new_state(game):
    def new_object(steps, state, path):
        parent = steps.replay(path)
        return [steps.same(parent, steps.play(parent, m)) for m in state.get_legal_moves()]

    positions = [(s, p) for s, p in POSITIONS if s.get_legal_moves()]
    observations = checks.collect(
        positions, game.ask(positions, new_object),
        lambda s, answer: not any(answer), lambda s: "a new GameState for every move")
    checks.verdict("forecast_move", observations, lambda found: ["forecast_returns_self"],
                   shown=lambda answer: "the same object it was called on")


def test_forecast_leaves_parent_unchanged(game, notes):
    """Judged by behaviour, against the student's own rules: each child forecast
    from a parent after its siblings must show the moves it shows when forecast
    from a fresh parent, and the parent must show the moves it showed before.
    (Which objects they share is asked of the student's own process, so it can
    only be a note, never a verdict.)"""
    def changes(state, path):
        """What forecasting each move from one parent disturbed (empty: nothing).
        The calls go to the worker together up to each answer that decides."""
        steps = game.steps()
        parent = steps.replay(path)
        before = steps.moves(parent)
        for move in state.get_legal_moves():
            child = steps.play(parent, move)
            got, fresh = steps.moves(child), steps.moves(steps.replay(path + (move,)))
            steps.run()
            if not same_moves(items(fresh.value) or [], got.value, multiset=True):
                return (f"forecast_move({move}) after its siblings gave a state whose legal "
                        f"moves were {got.value!r}; from a fresh state they are {fresh.value!r}")
            after = steps.moves(parent)
            steps.run()
            if not same_moves(items(before.value) or [], after.value, multiset=True):
                return (f"after forecast_move({move}) the parent's legal moves were "
                        f"{after.value!r}")
            shared = steps.shares(parent, child)
            steps.run()
            if shared.value:
                notes.append(f"forecast_move's new state shares {', '.join(shared.value[:3])} "
                             "with its parent: harmless in these tests, but a change to one "
                             "would show in the other; copy.deepcopy avoids it.")
        steps.run()  # where there is no move, the replay still runs
        return ""

    observations = checks.collect(
        POSITIONS, changes, lambda s, answer: not answer, lambda s: "the parent left unchanged")
    checks.verdict("forecast_move", observations, lambda found: [
        "shared_class_board" if shared_board(game) else "forecast_mutates"], shown=str)
