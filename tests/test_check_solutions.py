"""check-solutions grades its cases several at once (``--jobs``) and reports them
in their own order, the cases of the slowest exercise started first."""

import threading

from grader import exercises, solutions
from grader.sandbox.local import LocalSandbox


class Watched:
    """The local sandbox, counting the runs going on at once and noting which
    exercise each run was for, in the order they started."""

    def __init__(self):
        self.inner = LocalSandbox()
        self.name, self.layout = self.inner.name, self.inner.layout
        self.lock = threading.Lock()
        self.running = self.most = 0
        self.started = []

    def run(self, exercise, submission, limits, **options):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.started.append(exercise.id)
        try:
            return self.inner.run(exercise, submission, limits, **options)
        finally:
            with self.lock:
                self.running -= 1


def test_cases_are_graded_two_at_once_and_reported_in_their_order():
    # the two helpers cases, then gamestate's solution, which may take longer
    assert exercises.load("gamestate").limits.total_seconds > \
        exercises.load("helpers").limits.total_seconds
    cases = sorted((case for case in solutions.built_in() if case.exercise in ("helpers",
                    "gamestate") and (case.reference or case.path.name == "flipped_utilities")),
                   key=lambda case: case.exercise == "gamestate")
    watched = Watched()
    checked = list(solutions.check_all(cases, watched, jobs=2))
    assert [case for case, _, _ in checked] == cases
    assert all(problems == [] for _, _, problems in checked), checked
    # gamestate's started with the first helpers case, the second waited for a free job
    assert watched.most == 2 and watched.started[-1] == "helpers"
