"""The alphabeta exercise: alpha_beta_search(gameState, depth).

Counts come from a trusted terminal_test swapped into the student's module
from outside; the module's own ``call_counter`` is never read. The count is
the reference's exactly: a prune missed makes more terminal tests, one too
many makes fewer (and, somewhere, a wrong move).
"""

import math

import pytest

from grader.games import isolation
from grader.games.isolation.suite_positions import LARGE_DEPTH_PATHS, large, nonterminal
from grader.harness.isolation.alphabeta import AlphaBeta
from grader.harness.isolation.decision_checks import ALPHA_BETA, check_counts, check_moves
from grader.harness.judging import checks, mistakes
from grader.harness.judging.probes import SearchProbe

POSITIONS = nonterminal(isolation.positions())
LARGE = large(LARGE_DEPTH_PATHS)
DEPTHS = range(1, 7)
LARGE_DEPTHS = range(1, 4)
WINDOW = (-math.inf, math.inf)


@pytest.fixture
def search(student):
    return SearchProbe(student, "alphabeta")


def test_depth_one_counts_five(search):
    # one position says little: the diagnosis also sees depths 1 and 2 everywhere
    check_counts(search, POSITIONS[:1], [1], evidence=(POSITIONS, [1, 2]), decider=ALPHA_BETA)


def check_cutoff(search, name):
    """``name(state, -inf, inf, 0)`` is 0 on unfinished positions."""
    observations = checks.collect(
        POSITIONS, search.values(name, POSITIONS, *WINDOW, 0),
        lambda s, value: type(value) in (int, float) and value == 0,
        lambda s: "0 (the cutoff, on a position that is not terminal)")

    def reproduces(flaws, observation):
        return not checks.raised(observation) and observation.answer == \
            AlphaBeta(flaws).outcome(name, observation.state, *WINDOW, 0)

    models = [(m, f) for m, f in mistakes.ALPHA_BETA_MODELS if f.only in (None, name)]
    checks.verdict(f"{name}(state, -inf, inf, 0)", observations,
                   lambda found: mistakes.diagnose(models, reproduces, found))


def test_cutoff_returns_zero(search):
    checks.each(("min_value", "max_value"), lambda name: check_cutoff(search, name))


def test_call_counts(search):
    checks.each(("small", "large"), lambda board: check_counts(
        search, *((POSITIONS, DEPTHS) if board == "small" else (LARGE, LARGE_DEPTHS)),
        decider=ALPHA_BETA))


def test_best_moves(search):
    checks.each(("small", "large"), lambda board: check_moves(
        search, *((POSITIONS, DEPTHS) if board == "small" else (LARGE, LARGE_DEPTHS)),
        decider=ALPHA_BETA))
