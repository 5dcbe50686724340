"""What a student is handed for an exercise, as ``minimax-grader stub`` writes it.

The starter files to fill in; the modules the course provides (an
instructor's game's rules among them), which the student's code imports
(the grader gives the same ones to the sandbox), so that the starters run
outside the grader; and ``check_<exercise>.py``, a
self-check of a few public facts of the lesson (the exercise folder's
``check.py``), with ``selfcheck.py``, which checks them.
"""

from pathlib import Path

from grader import games
from grader.contracts import places
from grader.contracts.provided import source
from grader.exercises import Exercise
from grader.selfcheck import PREFIX


def self_check(exercise: Exercise) -> str:
    """The name of the exercise's self-check: the name tells it the exercise."""
    return f"{PREFIX}{exercise.id}.py"


def handout(exercise: Exercise) -> dict[str, Path]:
    """Each file the student gets, by name, with the file it is copied from."""
    given = {path.name: path for path in sorted(exercise.starter.iterdir()) if path.is_file()}
    given.update({f"{name}.py": source(name, games.added()) for name in exercise.provides})
    facts = exercise.folder / "check.py"
    if facts.is_file():  # the agent, graded by play, has no facts to check
        given[self_check(exercise)] = facts
        given["selfcheck.py"] = places.PACKAGE / "selfcheck.py"
    return given
