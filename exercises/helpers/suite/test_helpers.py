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
NONE_NOTE = ("terminal_test returned None where False was meant; it was accepted, as "
             "`if terminal_test(state):` treats both alike, but return False to be clear.")


@pytest.fixture
def helpers(student):
    return SearchProbe(student, MODULE)


def over(state):
    return not state.get_legal_moves()


def test_terminal_test(helpers, notes):
    def agrees(state, answer):
        return answer is over(state) or answer is None and not over(state)

    observations = checks.collect(
        POSITIONS, helpers.plain("terminal_test", POSITIONS), agrees, lambda s: repr(over(s)))
    answers = [o.answer for o in observations]
    if None in answers and (True in answers or False in answers):
        notes.append(NONE_NOTE)

    def inverted(observations):
        bad = checks.wrong(observations)
        return ["inverted_terminal_test"] if all(o.answer is (not over(o.state))
                                                 for o in bad) else []

    checks.verdict("terminal_test", observations, inverted)


def check_value(helpers, name, positions):
    expected = getattr(REFERENCE, name)
    observations = checks.collect(
        positions, helpers.values(name, positions),
        lambda s, answer: type(answer) in (int, float) and answer == expected(s),
        lambda s: repr(expected(s)))

    def reproduces(flaws, observation):
        return getattr(Search(flaws), name)(observation.state) == observation.answer

    checks.verdict(name, observations, lambda found: mistakes.diagnose(
        mistakes.SEARCH_MODELS, reproduces, found))


def test_min_value_empty_board(helpers):
    check_value(helpers, "min_value", POSITIONS[:1])


def test_min_value(helpers):
    check_value(helpers, "min_value", POSITIONS)


def test_max_value(helpers):
    check_value(helpers, "max_value", POSITIONS)
