"""The alphabeta exercise: alpha_beta_search(gameState, depth).

Counts come from a trusted terminal_test swapped into the student's module
from outside; the module's own ``call_counter`` is never read. The count is
the reference's exactly: a prune missed makes more terminal tests, one too
many makes fewer (and, somewhere, a wrong move).
"""

import pytest

from grader.games import isolation, unfinished
from grader.harness.checking import checks
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.cutoff_checks import check_cutoff
from grader.harness.lesson.decision_checks import ALPHA_BETA, check_counts, check_moves

POSITIONS = unfinished(isolation)
DEPTHS = range(1, 7)
# The 4 x 3 board as deep as the small one, and the decision exercise's
# positions of it at depth 5: a window set to a child's value (beta = v)
# instead of narrowed to it (min(beta, v)) prunes otherwise only that deep.
BOARDS = {"small": (POSITIONS, DEPTHS), "large": (isolation.larger("depth"), range(1, 7)),
          "deep": (isolation.larger("decision"), [5])}


@pytest.fixture
def search(student):
    return SearchProbe(student, "alphabeta")


def test_depth_one_counts_five(search):
    # one position says little: the diagnosis also sees depths 1 and 2 everywhere
    check_counts(search, POSITIONS[:1], [1], evidence=(POSITIONS, [1, 2]), decider=ALPHA_BETA)


def test_cutoff_returns_zero(search):
    checks.each(("min_value", "max_value"),
                lambda name: check_cutoff(search, name, POSITIONS, alpha_beta=True))


def test_call_counts(search):
    checks.each(BOARDS, lambda board: check_counts(search, *BOARDS[board], decider=ALPHA_BETA))


def test_best_moves(search):
    checks.each(BOARDS, lambda board: check_moves(search, *BOARDS[board], decider=ALPHA_BETA))
