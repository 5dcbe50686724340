"""The depth_limit exercise: minimax_decision(gameState, depth).

Counts come from a trusted terminal_test swapped into the student's module
from outside; the module's own ``call_counter`` is never read.
"""

import pytest

from grader.games import isolation, unfinished
from grader.harness.checking import checks
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.cutoff_checks import check_cutoff
from grader.harness.lesson.decision_checks import check_counts, check_moves

POSITIONS = unfinished(isolation)
DEPTHS = range(1, 7)


@pytest.fixture
def search(student):
    return SearchProbe(student, "minimax")


def test_depth_one_counts_five(search):
    # one position says little: the diagnosis also sees depths 1 and 2 everywhere
    check_counts(search, POSITIONS[:1], [1], evidence=(POSITIONS, [1, 2]))


def test_cutoff_returns_zero(search):
    checks.each(("min_value", "max_value"), lambda name: check_cutoff(search, name, POSITIONS))


def test_call_counts(search):
    check_counts(search, POSITIONS, DEPTHS)


def test_best_moves(search):
    check_moves(search, POSITIONS, DEPTHS)


def test_larger_board(search):
    positions = isolation.larger("depth")
    check_counts(search, positions, [1, 2, 3])
    check_moves(search, positions, [1, 2, 3])
