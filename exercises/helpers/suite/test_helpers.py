"""The helpers exercise: terminal_test, min_value and max_value, declared for
mini-isolation: the family's checks (``grader.harness.lesson.helper_checks``)
on every reachable position of the lesson's board."""

import pytest

from grader.games import isolation
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.helper_checks import check_terminal_test, check_value

POSITIONS = isolation.positions()


@pytest.fixture
def helpers(student):
    return SearchProbe(student, "minimax_helpers")


def test_terminal_test(helpers, notes):
    check_terminal_test(helpers, POSITIONS, notes)


def test_min_value_empty_board(helpers):
    check_value(helpers, "min_value", POSITIONS[:1])


def test_min_value(helpers):
    check_value(helpers, "min_value", POSITIONS)


def test_max_value(helpers):
    check_value(helpers, "max_value", POSITIONS)
