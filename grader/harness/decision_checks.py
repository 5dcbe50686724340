"""Checks shared by the decision and depth_limit suites.

Both call the student's ``minimax_decision`` on trusted positions, with a
trusted, counting ``terminal_test`` swapped into the student's module, and
compare the move (any of the equally best is right) and, for the depth
limit, the number of terminal tests, with the reference search.
"""

from grader.harness import checks, isolation, mistakes
from grader.harness.search import Search
from grader.harness.wire import describe

FUNCTION = "minimax_decision"
_REFERENCE = {}


def _reference(state, depth):
    """The reference decision on ``state``: (terminal tests, best moves). The
    moves and the counts are checked on the same positions: search once."""
    key = (isolation.key(state), depth)
    if key not in _REFERENCE:
        _REFERENCE[key] = Search().decision(state, depth)
    return _REFERENCE[key]


def moves_text(moves):
    return "one of " + ", ".join(f"({x}, {y})" for x, y in sorted(moves))


def _ask(probe, positions, depth):
    extra = () if depth is None else (depth,)
    return probe.counted(FUNCTION, positions, *extra)


def _label(depth):
    return {"depth": depth} if depth is not None else None


def _depth(observation):
    return observation.extra.get("depth")


def _is_number(value):
    return type(value) in (int, float)


def _move_likelihood(flaws, observation):
    """The chance that the model picks the student's move (ties split evenly)."""
    if checks.raised(observation):
        return 0
    best = Search(flaws).best_moves(observation.state, _depth(observation))
    return 1 / len(best) if observation.answer[0] in best else 0


def _random_player(observation):
    return 1 / len(observation.state.get_legal_moves())


def _diagnose_moves(observations):
    bad = checks.wrong(observations)
    if not any(checks.raised(o) for o in bad):
        moves = [o.answer[0] for o in bad]
        if all(move is None for move in moves) and len(bad) == len(observations):
            return ["stub"]
        if all(_is_number(move) for move in moves):
            return ["returns_score"]
    return mistakes.diagnose(mistakes.SEARCH_MODELS, _move_likelihood, observations, _random_player)


def check_moves(probe, positions, depths=(None,)):
    """The move is one of the best at every position (and depth)."""
    observations = []
    for depth in depths:
        observations += checks.collect(
            positions, _ask(probe, positions, depth),
            lambda s, answer: checks.is_move(answer[0]) and answer[0] in _reference(s, depth)[1],
            lambda s: moves_text(_reference(s, depth)[1]),
            _label(depth))
    checks.verdict(f"The move of {FUNCTION}", observations, _diagnose_moves,
                   shown=lambda answer: describe(answer[0]))


def check_counts(probe, positions, depths):
    """The search calls terminal_test exactly as often as the reference."""
    observations = []
    for depth in depths:
        observations += checks.collect(
            positions, _ask(probe, positions, depth),
            lambda s, answer: answer[1] == _reference(s, depth)[0],
            lambda s: f"{_reference(s, depth)[0]} calls to terminal_test",
            _label(depth))

    def reproduces(flaws, observation):
        return not checks.raised(observation) and \
            observation.answer[1] == Search(flaws).decision(observation.state,
                                                            _depth(observation))[0]

    checks.verdict(f"The number of terminal tests in {FUNCTION}", observations,
                   lambda found: mistakes.diagnose(mistakes.SEARCH_MODELS, reproduces, found),
                   shown=lambda answer: f"{answer[1]} calls to terminal_test")
