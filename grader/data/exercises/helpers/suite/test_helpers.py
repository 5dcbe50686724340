"""The helpers exercise: terminal_test, min_value and max_value.

They run on the grader's trusted GameState on every reachable position. While
min_value and max_value are tested, the trusted terminal_test stands in for
the student's, and the grader's own max_value for the student's while
min_value is tested (and the reverse): a mistake in one function costs that
function's points only.
"""

import pytest

from grader.games import isolation
from grader.harness.isolation.search import Search, Stuck
from grader.harness.judging import checks, mistakes
from grader.harness.judging.probes import SearchProbe

MODULE = "minimax_helpers"
POSITIONS = isolation.positions()
REFERENCE = Search(game=isolation)
OTHER = {"min_value": "max_value", "max_value": "min_value"}
# Answers that `if terminal_test(state):` reads as meant, though they are no bool.
LOOSE = {None: False, 0: False, 1: True}


@pytest.fixture
def helpers(student):
    return SearchProbe(student, MODULE)


def over(state):
    return isolation.terminal(state)


def loose(answer):
    """The truth an answer that is not a bool stands for, or None."""
    return LOOSE.get(answer) if type(answer) in (int, type(None)) else None


def loose_note(answers):
    """A note naming the answers that were accepted though they are not bools."""
    kinds = sorted({repr(a) for a in answers if type(a) is not bool and loose(a) is not None})
    if not kinds:
        return None
    return (f"terminal_test returned {' and '.join(kinds)} where True or False was meant; "
            "accepted, as `if terminal_test(state):` reads them alike, but return a bool.")


def test_terminal_test(helpers, notes):
    def agrees(state, answer):
        truth = answer if type(answer) is bool else loose(answer)
        return truth is over(state)

    observations = checks.collect(
        POSITIONS, helpers.plain("terminal_test", POSITIONS), agrees, lambda s: repr(over(s)))
    note = loose_note([o.answer for o in observations])
    if note and all(o.ok for o in observations):
        notes.append(note)

    def inverted(observations):
        # every answer, as `if` reads it, says the opposite
        return ["inverted_terminal_test"] if all(
            not checks.raised(o) and bool(o.answer) is not over(o.state)
            and (type(o.answer) is bool or loose(o.answer) is not None)
            for o in observations) else []

    checks.verdict("terminal_test", observations, inverted)


def is_number(value):
    return type(value) in (int, float)


def ask_alone(helpers, name, positions):
    """``ask`` for ``checks.collect`` (the value of ``name``, the grader's own other
    function standing in), and where ``name`` called that function: path -> bool."""
    answers = helpers.alone(name, positions, other=OTHER[name])
    called = {}

    def ask(state, path):
        value, called[path] = answers(state, path)
        return value

    return ask, called


def check_value(helpers, name, positions):
    expected = getattr(REFERENCE, name)
    ask, called = ask_alone(helpers, name, positions)
    observations = checks.collect(
        positions, ask, lambda s, answer: is_number(answer) and answer == expected(s),
        lambda s: repr(expected(s)))

    def reproduces(flaws, observation):
        model = Search(flaws)
        predicted = model.outcome(name, observation.state)
        if checks.raised(observation):  # the model, too, must be stuck on a None
            return predicted is Stuck and observation.answer.raised["type"] == "TypeError"
        answer = observation.answer
        same = predicted is None and answer is None or (
            is_number(predicted) and is_number(answer) and predicted == answer)
        return same and bool(model.entered) == called[observation.path]

    checks.verdict(name, observations, lambda found: mistakes.diagnose(
        mistakes.models_for(name), reproduces, found))


def test_min_value_empty_board(helpers):
    check_value(helpers, "min_value", POSITIONS[:1])


def test_min_value(helpers):
    check_value(helpers, "min_value", POSITIONS)


def test_max_value(helpers):
    check_value(helpers, "max_value", POSITIONS)
