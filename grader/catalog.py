"""Every exercise a front end offers: those graded by a suite, one folder each
with its exercise.toml (``grader.exercises``, the built-in and the added), and
the agent, graded by play from its folder's match.toml (``grader.match.handin``).

The command line lists, grades and checks them all through here; the
exercises' own module can't know the agent's, which the match builds.
"""

from grader import exercises
from grader.exercises import Exercise, UnknownExercise


def played() -> dict[str, Exercise]:
    """The exercises graded by play, by id (the match is imported here: grading
    an exercise by its suite needs none of it)."""
    from grader.match import handin

    agent = handin.exercise()
    return {agent.id: agent}


def ids() -> list[str]:
    return sorted([*exercises.known(), *played()])


def load(name: str) -> Exercise:
    """The exercise ``name``, graded by a suite or by play; UnknownExercise if none."""
    if name in exercises.known():
        return exercises.load(name)
    by_play = played()
    if name not in by_play:
        raise UnknownExercise(name, ids())
    return by_play[name]


def load_all() -> list[Exercise]:
    return [load(name) for name in ids()]
