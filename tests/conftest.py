"""Shared helpers for the grader's own tests."""

import shutil
from pathlib import Path

import pytest

from grader import exercises, grading, report
from grader.sandbox.local import LocalSandbox

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "solutions"


def grade(exercise_id, path, **limits):
    """Grade ``path`` in the local sandbox; the report is schema-checked again."""
    exercise = exercises.load(exercise_id)
    result = grading.grade(exercise, path, LocalSandbox(), exercise.limits.override(**limits))
    return report.validate(result)


@pytest.fixture
def submission(tmp_path):
    """Write a one-file submission from source text: submission(name, text) -> folder."""
    def write(name, text):
        folder = tmp_path / "submission"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        return folder
    return write


@pytest.fixture
def solution_copy(tmp_path):
    """A copy of a reference solution's folder, to change: solution_copy(id) -> folder."""
    def copy(exercise_id):
        target = tmp_path / exercise_id
        shutil.copytree(SOLUTIONS / exercise_id, target)
        return target
    return copy


DOCKER_SKIPS = []


@pytest.fixture(scope="session")
def docker_client():
    """A client of a Docker engine with an up-to-date grading image.

    Skipped only where no engine answers, and then said loudly at the end of
    the run; under CI (CI=true) a missing engine fails instead.
    """
    import os

    from grader import image
    from grader.sandbox import SandboxUnavailable
    from grader.sandbox.docker import connect

    try:
        client = connect()
    except SandboxUnavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs a Docker engine: {exc}")
        DOCKER_SKIPS.append(str(exc))
        pytest.skip(f"NO DOCKER ENGINE: {exc}")
    if image.problem(client):
        image.build(client)
    return client


def pytest_terminal_summary(terminalreporter):
    hostile_summary(terminalreporter)
    if DOCKER_SKIPS:
        bar = "!" * 78
        terminalreporter.write_line(bar, red=True, bold=True)
        terminalreporter.write_line("THE DOCKER SANDBOX WAS NOT TESTED: no Docker engine answers "
                                    f"({DOCKER_SKIPS[0]})", red=True, bold=True)
        terminalreporter.write_line(bar, red=True, bold=True)


HOSTILE_RESULTS = {}  # run id -> the problems found (empty: the grader held)


def hostile_summary(terminalreporter):
    if not HOSTILE_RESULTS:
        return
    cases = {run.split("@")[0] for run in HOSTILE_RESULTS}
    broken = sorted(run for run, problems in HOSTILE_RESULTS.items() if problems)
    terminalreporter.write_line(
        f"hostile corpus: {len(cases)} cases, {len(HOSTILE_RESULTS)} runs: "
        f"{len(HOSTILE_RESULTS) - len(broken)} held, {len(broken)} broken"
        + (f" ({', '.join(broken)})" if broken else ""), bold=True)
