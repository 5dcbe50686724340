"""The alphabeta exercise, declared for Kayles: alpha_beta_search(gameState,
depth). Counts come from a trusted terminal_test swapped into the student's
module from outside; the count is the reference's exactly: a prune missed
makes more terminal tests, one too many makes fewer (and, somewhere, a wrong
move). The probe plays the exercise's game (exercise.toml: ``game = "kayles"``)."""

import pytest

from grader.games import kayles, unfinished
from grader.harness.checking import checks
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.cutoff_checks import check_cutoff
from grader.harness.lesson.decision_checks import ALPHA_BETA, check_counts, check_moves

# Two pins down on the row of nine, six moves deep: the smallest search on
# which a window set to a child's value (beta = v) instead of narrowed to it
# (min(beta, v)) prunes otherwise (895 terminal tests against 887).
DEEP = [(kayles.new_game(kayles.LARGE_ROW).replay(path), path) for path in [((2, 2), (7, 7))]]
ROWS = {"small": (unfinished(kayles), range(1, 7)), "large": (kayles.larger("depth"), range(1, 4)),
        "deep": (DEEP, [6])}
POSITIONS = ROWS["small"][0]


@pytest.fixture
def search(student):
    return SearchProbe(student, "alphabeta")


def test_depth_one_counts_eleven(search):
    # one position says little: the diagnosis also sees depths 1 and 2 everywhere
    check_counts(search, POSITIONS[:1], [1], evidence=(POSITIONS, [1, 2]), decider=ALPHA_BETA)


def test_cutoff_returns_zero(search):
    checks.each(("min_value", "max_value"),
                lambda name: check_cutoff(search, name, POSITIONS, alpha_beta=True))


def test_call_counts(search):
    checks.each(ROWS, lambda row: check_counts(search, *ROWS[row], decider=ALPHA_BETA))


def test_best_moves(search):
    checks.each(ROWS, lambda row: check_moves(search, *ROWS[row], decider=ALPHA_BETA))
