"""The student's code in the lesson's terms, as the suites call it.

``SearchProbe`` runs the student's search functions on the grader's trusted
states; ``GameProbe`` drives the student's own ``GameState`` class.
"""

from grader.harness import isolation


def _move(move):
    return {"tuple": list(move)}


class SearchProbe:
    def __init__(self, student, module):
        self.student = student
        self.module = module

    def __call__(self, name, state, *extra):
        """The value the student's function returns on ``state``."""
        return self.counted(name, state, *extra)[0]

    def counted(self, name, state, *extra, trusted_terminal=True):
        """The value, and the calls it made to a trusted, counting terminal_test."""
        reply = self.student.call(
            ("module", self.module), name, {"state": isolation.to_data(state)}, *extra,
            count_in=self.module if trusted_terminal else None,
        )
        return reply["value"], reply["calls"]

    def plain(self, name, state):
        """The value, with the student's own helpers left in place."""
        return self.counted(name, state, trusted_terminal=False)[0]


class GameProbe:
    def __init__(self, student, module="gamestate"):
        self.student = student
        self.module = module

    def new(self):
        reply = self.student.call(("module", self.module), "GameState", keep=True)
        return reply["handle"]

    def play(self, handle, move):
        return self.student.call(("handle", handle), "forecast_move", _move(move), keep=True)["handle"]

    def moves(self, handle):
        return self.student.call(("handle", handle), "get_legal_moves")["value"]

    def same(self, a, b):
        """Whether two kept objects are one and the same."""
        return self.student.inspect("same", a, b)

    def replay(self, path):
        """A fresh student state with ``path`` played on it."""
        handle = self.new()
        for move in path:
            handle = self.play(handle, move)
        return handle

    def shares(self, a, b):
        """Paths of the mutable parts that two kept states have in common."""
        return self.student.inspect("shares", a, b)
