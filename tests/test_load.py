"""Grades on a busy machine are the grades of a quiet one.

The machine is made busy by the test itself: twelve busy processes a core,
each in a session of its own (the scheduler groups a session's processes, so
that one session of many loops is one neighbour; gradings, containers and
other users' jobs each come in their own), started before and killed after.
Beside them the corpus of the exercises with the tightest limits is graded,
and every report must be what its expect.toml says, as on a quiet machine:
nothing charged for the wait, nothing graded ``error``, nothing left ungraded.

It runs on its own (``pytest -m load``, a phase of its own in .ci/run): beside
the rest of the suite it would slow every other test ten times over.
"""

from concurrent.futures import ThreadPoolExecutor

import pytest
from busy import busy
from conftest import built_in_case

from grader import exercises, grading, solutions
from grader.sandbox import cgroups
from grader.sandbox.docker import DockerSandbox
from grader.sandbox.local import LocalSandbox

pytestmark = [pytest.mark.load, pytest.mark.timeout(1800)]

# The exercises whose limits are the tightest against their correct work (ten
# times the slowest correct case, bench/time_limits.py), their reference, right
# files in other styles and wrong ones (a wrong one's verdict must stay FAILED,
# never turn into a TIMEOUT).
CASES = ["solution of helpers", "helpers/correct_builtin_min_max", "helpers/flipped_utilities",
         "helpers/recursion_swapped", "helpers/two_mistakes",
         "solution of tic_tac_toe_alphabeta", "tic_tac_toe_alphabeta/prune_on_strict",
         "tic_tac_toe_alphabeta/no_pruning",
         "solution of depth_limit", "depth_limit/depth_not_decremented",
         "solution of gamestate"]
IN_DOCKER = ["solution of helpers", "helpers/flipped_utilities"]


@pytest.fixture
def busy_machine():
    """Twelve busy processes a core, a session each, for the test's length."""
    if cgroups.available():  # without a control group the wall clock times the runs
        pytest.fail(f"the load test needs control groups: {cgroups.available()}")
    with busy() as loops:
        yield loops


def judged(label, sandbox):
    case = built_in_case(label)
    exercise = exercises.load(case.exercise)
    report = grading.grade(exercise, case.path, sandbox, exercise.limits)
    return label, report, solutions.problems_of(case, report)


def _grade_all(labels, sandbox):
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(lambda label: judged(label, sandbox), labels))


def _problems(results):
    return {label: (problems, report["status"], report["sandbox"].get("used"), report["message"])
            for label, report, problems in results if problems}


def test_a_busy_machine_changes_no_verdict_in_the_local_sandbox(busy_machine):
    results = _grade_all(CASES, LocalSandbox())
    assert not _problems(results)
    for _, report, _ in results:
        assert report["sandbox"]["clock"] == "kernel" and not report["sandbox"]["overloaded"]
    # The machine was busy: the runs waited for a CPU, and were not charged for it.
    assert any(report["sandbox"]["used"]["wall_seconds"] > 2 * report["sandbox"]["used"][
        "own_seconds"] for _, report, _ in results)


def test_a_busy_machine_changes_no_verdict_in_docker(busy_machine, docker_client):
    sandbox = DockerSandbox(docker_client)
    try:
        results = _grade_all(IN_DOCKER, sandbox)
    finally:
        sandbox.close()
    assert not _problems(results)
    for _, report, _ in results:
        assert report["sandbox"]["clock"] == "kernel"
