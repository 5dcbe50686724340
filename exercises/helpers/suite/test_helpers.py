"""The helpers exercise: terminal_test, min_value and max_value.

They run on the grader's trusted GameState on every reachable position. While
min_value and max_value are tested, the trusted terminal_test stands in for
the student's, so a wrong terminal_test costs points once.
"""

import pytest

from grader.harness import checks, isolation, mistakes
from grader.harness.probes import SearchProbe
from grader.harness.search import Search

MODULE = "minimax_helpers"
POSITIONS = isolation.reachable(isolation.new_game())
REFERENCE = Search()


@pytest.fixture
def helpers(student):
    return SearchProbe(student, MODULE)


def test_terminal_test(helpers, notes):
    def agrees(state, answer):
        if answer is None and state.get_legal_moves():
            notes.append("terminal_test returned None where False was meant; it was "
                         "accepted, as `if terminal_test(state):` treats both alike, but "
                         "return False to be clear.")
            return True
        return type(answer) is bool and answer == REFERENCE.terminal_test(state)

    differences = checks.collect(
        POSITIONS, lambda s, _: helpers.plain("terminal_test", s), agrees,
        lambda s: repr(not s.get_legal_moves()),
    )
    if differences:
        mistake = checks.returned_a_stub(differences)
        if not mistake and all(d.actual is (not d.expected == "True") for d in differences):
            mistake = "inverted_terminal_test"
        checks.fail("terminal_test", differences, len(POSITIONS), mistake)


def _check_value(helpers, name, positions):
    expected = getattr(REFERENCE, name)

    def agrees(state, answer):
        return type(answer) in (int, float) and answer == expected(state)

    differences = checks.collect(
        positions, lambda s, _: helpers(name, s), agrees, lambda s: repr(expected(s)),
    )
    if differences:
        def reproduces(flaws, difference):
            return getattr(Search(flaws), name)(difference.state) == difference.actual

        mistake = checks.returned_a_stub(differences) or mistakes.diagnose(
            mistakes.SEARCH_MODELS, reproduces, differences)
        checks.fail(name, differences, len(positions), mistake)


def test_min_value_empty_board(helpers):
    _check_value(helpers, "min_value", POSITIONS[:1])


def test_min_value(helpers):
    _check_value(helpers, "min_value", POSITIONS)


def test_max_value(helpers):
    _check_value(helpers, "max_value", POSITIONS)
