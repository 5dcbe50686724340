"""What a student's page says of late work: the penalty whenever one applies."""

from datetime import datetime

import pytest

from grader import exercises
from grader.service.models import ExerciseSetting
from grader.service.pages import ExerciseView

DEADLINE, HARD = datetime(2026, 3, 1, 12), datetime(2026, 3, 8, 12)


@pytest.mark.parametrize(("deadline", "hard", "penalty", "said"), [
    (DEADLINE, None, 0.5, "late work is taken with a 50% penalty"),
    (DEADLINE, HARD, 0.5, "late work is taken until 2026-03-08 12:00 UTC with a 50% penalty"),
    (DEADLINE, HARD, 0.0, "late work is taken until 2026-03-08 12:00 UTC without penalty"),
    (DEADLINE, None, 0.0, "late work is taken without penalty"),
    (None, HARD, 0.5, "nothing is taken after 2026-03-08 12:00 UTC"),
    (None, None, 0.5, None),
])
def test_the_late_terms_are_said_whenever_they_apply(deadline, hard, penalty, said):
    setting = ExerciseSetting(course_id=1, exercise_id="helpers", visible=True,
                              deadline=deadline, hard_deadline=hard, late_penalty=penalty,
                              min_minutes=0.0, score_rule="best")
    assert ExerciseView(exercises.load("helpers"), setting, None).late_terms == said
