"""Checks shared by the decision and depth_limit suites.

Both call the student's ``minimax_decision`` on trusted positions, with a
trusted, counting ``terminal_test`` swapped into the student's module, and
compare the move (any of the equally best is right) and, for the depth
limit, the number of terminal tests, with the reference search.
"""

from grader.harness import checks, mistakes
from grader.harness.search import Search
from grader.harness.wire import describe

REFERENCE = Search()
FUNCTION = "minimax_decision"


def nonterminal(positions):
    """The decision need not handle a finished game."""
    return [(state, path) for state, path in positions if state.get_legal_moves()]


def moves_text(moves):
    return "one of " + ", ".join(f"({x}, {y})" for x, y in sorted(moves))


def _decide(probe, depth):
    extra = () if depth is None else (depth,)
    return lambda state, path: probe.counted(FUNCTION, state, *extra)


def _label(depth):
    return {"depth": depth} if depth is not None else None


def _depth(difference):
    return difference.extra.get("depth")


def _is_number(value):
    return type(value) in (int, float)


def _diagnose_moves(differences):
    answers = [d.actual for d in differences if not isinstance(d.actual, checks.Raised)]
    if len(answers) == len(differences):
        if all(move is None for move, _ in answers):
            return "stub"
        if all(_is_number(move) for move, _ in answers):
            return "returns_score"

    def reproduces(flaws, difference):
        if isinstance(difference.actual, checks.Raised):
            return False
        move = difference.actual[0]
        return checks.is_move(move) and move in Search(flaws).best_moves(
            difference.state, _depth(difference))

    return mistakes.diagnose(mistakes.SEARCH_MODELS, reproduces, differences)


def check_moves(probe, positions, depths=(None,)):
    """The move is one of the best at every position (and depth)."""
    differences = []
    for depth in depths:
        differences += checks.collect(
            positions, _decide(probe, depth),
            lambda s, answer: checks.is_move(answer[0])
            and answer[0] in REFERENCE.best_moves(s, depth),
            lambda s: moves_text(REFERENCE.best_moves(s, depth)),
            _label(depth),
        )
    if differences:
        checks.fail(f"The move of {FUNCTION}", differences, len(positions) * len(depths),
                    _diagnose_moves(differences), shown=lambda answer: describe(answer[0]))


def _calls(flaws, state, depth):
    return Search(flaws).decision(state, depth)[0]


def check_counts(probe, positions, depths):
    """The search calls terminal_test exactly as often as the reference."""
    differences = []
    for depth in depths:
        differences += checks.collect(
            positions, _decide(probe, depth),
            lambda s, answer: answer[1] == _calls(None, s, depth),
            lambda s: f"{_calls(None, s, depth)} calls to terminal_test",
            _label(depth),
        )
    if differences:
        def reproduces(flaws, difference):
            return not isinstance(difference.actual, checks.Raised) and \
                difference.actual[1] == _calls(flaws, difference.state, _depth(difference))

        checks.fail(f"The number of terminal tests in {FUNCTION}", differences,
                    len(positions) * len(depths),
                    mistakes.diagnose(mistakes.SEARCH_MODELS, reproduces, differences),
                    shown=lambda answer: f"{answer[1]} calls to terminal_test")
