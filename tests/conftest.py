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
