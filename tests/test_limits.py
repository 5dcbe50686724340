"""Limits the grader can't grade with are refused where they are made, with
a message that names the limit, its value and why: never a run that fails
for the grader's own want and charges the student for it."""

import math

import pytest

from grader import exercises
from grader.exercises import (
    MEMORY_FLOOR_MB,
    SECONDS_FLOOR,
    TOTAL_SECONDS_FLOOR,
    BadExercise,
    BadLimits,
    Limits,
)

HELPERS = exercises.load("helpers")


@pytest.mark.parametrize("changes, says", [
    ({"memory_mb": 0}, "memory_mb = 0 is not above 0"),
    ({"memory_mb": -5}, "memory_mb = -5 is not above 0"),
    ({"call_seconds": 0}, "call_seconds = 0 is not above 0"),
    ({"total_seconds": -1.5}, "total_seconds = -1.5 is not above 0"),
    ({"processes": 0}, "processes = 0 is not above 0"),
    ({"output_bytes": -1}, "output_bytes = -1 is not above 0"),
    ({"memory_mb": "512"}, "memory_mb = '512' is not a whole number"),
    ({"memory_mb": 512.0}, "memory_mb = 512.0 is not a whole number"),
    ({"file_bytes": True}, "file_bytes = True is not a whole number"),
    ({"call_seconds": "5"}, "call_seconds = '5' is not a number of seconds"),
    ({"test_seconds": math.nan}, "test_seconds = nan is not a number of seconds"),
    ({"total_seconds": math.inf}, "total_seconds = inf is not a number of seconds"),
    ({"memory_mb": MEMORY_FLOOR_MB - 1},
     f"memory_mb = {MEMORY_FLOOR_MB - 1} is below the {MEMORY_FLOOR_MB} MB the grader itself "
     "needs to grade a correct submission (measured by bench/grader_needs.py: "),
    ({"call_seconds": SECONDS_FLOOR / 2},
     f"call_seconds = {SECONDS_FLOOR / 2} is below the {SECONDS_FLOOR} s the grader itself "
     "needs for a call, which starts a worker (measured by bench/grader_needs.py: "),
    ({"total_seconds": TOTAL_SECONDS_FLOOR / 2},
     f"total_seconds = {TOTAL_SECONDS_FLOOR / 2} is below the {TOTAL_SECONDS_FLOOR} s"),
    ({"call_seconds": 7, "test_seconds": 5},
     "call_seconds = 7 is above test_seconds = 5: a call runs within its test"),
])
def test_an_invalid_limit_is_refused_with_its_name_value_and_why(changes, says):
    with pytest.raises(BadLimits) as refused:
        HELPERS.limits.override(**changes)
    assert str(refused.value).startswith(says)
    with pytest.raises(BadLimits):
        Limits(**changes)


def test_a_valid_override_passes():
    limits = HELPERS.limits.override(memory_mb=MEMORY_FLOOR_MB, call_seconds=SECONDS_FLOOR,
                                     test_seconds=SECONDS_FLOOR + 0.5,
                                     total_seconds=TOTAL_SECONDS_FLOOR)
    assert (limits.memory_mb, limits.call_seconds, limits.test_seconds, limits.total_seconds) == (
        MEMORY_FLOOR_MB, SECONDS_FLOOR, SECONDS_FLOOR + 0.5, TOTAL_SECONDS_FLOOR)
    assert limits.override(call_seconds=None) == limits


def test_a_total_below_a_tests_limit_passes():
    # The run's limit then stops whatever test runs: the time-limit tests rely on it.
    limits = HELPERS.limits.override(call_seconds=120, test_seconds=120, total_seconds=8)
    assert limits.total_seconds == 8


def test_every_exercise_and_the_defaults_are_valid():
    assert Limits() and len(exercises.load_all()) == len(exercises.known()) >= 9


def test_the_message_names_the_limit_in_the_callers_words():
    with pytest.raises(BadLimits) as refused:
        HELPERS.limits.override(call_seconds=7, test_seconds=5)
    assert refused.value.named(lambda field, value: f"<{field}:{value}>") == (
        "<call_seconds:7> is above <test_seconds:5>: a call runs within its test, so its limit "
        "could never apply")
    assert isinstance(refused.value, ValueError)


@pytest.fixture
def exercise_root(tmp_path):
    """A copy of the helpers exercise whose exercise.toml a test rewrites:
    write(old, new) -> the path of that exercise.toml."""
    source = HELPERS.folder / "exercise.toml"
    target = tmp_path / "helpers" / "exercise.toml"
    target.parent.mkdir()

    def write(old, new):
        text = source.read_text()
        assert old in text
        target.write_text(text.replace(old, new, 1))
        return target
    return write


def test_an_exercise_toml_with_bad_limits_is_refused_naming_the_file(exercise_root):
    path = exercise_root("memory_mb = 512", "memory_mb = 32")
    with pytest.raises(BadExercise) as refused:
        exercises.load("helpers", root=path.parent.parent)
    assert str(refused.value).startswith(
        f"{path}: [limits] memory_mb = 32 is below the {MEMORY_FLOOR_MB} MB")


def test_an_exercise_toml_with_a_bad_test_limit_is_refused_naming_the_test(exercise_root):
    name = HELPERS.tests[0].name
    path = exercise_root(f'name = "{name}"', f'name = "{name}"\nseconds = 0')
    with pytest.raises(BadExercise) as refused:
        exercises.load("helpers", root=path.parent.parent)
    assert str(refused.value) == f"{path}: test {name}: seconds = 0 is not above 0"
