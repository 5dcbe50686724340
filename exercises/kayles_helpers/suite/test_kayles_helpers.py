"""The helpers exercise, declared for Kayles: the family's checks
(``grader.harness.lesson.helper_checks``) on every position of six pins.
The probe plays the exercise's game (exercise.toml: ``game = "kayles"``)."""

import pytest

from grader.games import kayles
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.helper_checks import check_terminal_test, check_value

POSITIONS = kayles.positions()


@pytest.fixture
def helpers(student):
    return SearchProbe(student, "minimax_helpers")


def test_terminal_test(helpers, notes):
    check_terminal_test(helpers, POSITIONS, notes)


def test_min_value_full_row(helpers):
    check_value(helpers, "min_value", POSITIONS[:1])


def test_min_value(helpers):
    check_value(helpers, "min_value", POSITIONS)


def test_max_value(helpers):
    check_value(helpers, "max_value", POSITIONS)
