"""The depth_limit exercise: minimax_decision(gameState, depth).

Counts come from a trusted terminal_test swapped into the student's module
from outside; the module's own ``call_counter`` is never read.
"""

import pytest

from grader.games import isolation
from grader.games.isolation.suite_positions import LARGE_DEPTH_PATHS, large, nonterminal
from grader.harness.isolation.decision_checks import check_counts, check_moves
from grader.harness.isolation.search import Search
from grader.harness.judging import checks, mistakes
from grader.harness.judging.probes import SearchProbe

POSITIONS = nonterminal(isolation.positions())
DEPTHS = range(1, 7)
OTHER = {"min_value": "max_value", "max_value": "min_value"}


@pytest.fixture
def search(student):
    return SearchProbe(student, "minimax")


def test_depth_one_counts_five(search):
    # one position says little: the diagnosis also sees depths 1 and 2 everywhere
    check_counts(search, POSITIONS[:1], [1], evidence=(POSITIONS, [1, 2]))


def check_cutoff(search, name):
    """``name(state, 0)`` is 0 on unfinished positions, the grader's own other
    function standing in for the student's."""
    observations = checks.collect(
        POSITIONS, search.values(name, POSITIONS, 0, trusted=[OTHER[name]]),
        lambda s, value: type(value) in (int, float) and value == 0,
        lambda s: "0 (the cutoff, on a position that is not terminal)")

    def reproduces(flaws, observation):
        return not checks.raised(observation) and observation.answer == \
            Search(flaws).outcome(name, observation.state, 0)

    checks.verdict(f"{name}(state, 0)", observations, lambda found: mistakes.diagnose(
        mistakes.models_for(name), reproduces, found))


def test_cutoff_returns_zero(search):
    checks.each(("min_value", "max_value"), lambda name: check_cutoff(search, name))


def test_call_counts(search):
    check_counts(search, POSITIONS, DEPTHS)


def test_best_moves(search):
    check_moves(search, POSITIONS, DEPTHS)


def test_larger_board(search):
    positions = large(LARGE_DEPTH_PATHS)
    check_counts(search, positions, [1, 2, 3])
    check_moves(search, positions, [1, 2, 3])
