"""The student's code in the lesson's terms, as the suites call it.

``SearchProbe`` runs the student's search functions on the grader's trusted
states; ``GameProbe`` drives the student's own ``GameState`` class. Calls are
queued as steps and sent to the worker together (see ``Student.run``): the
calls about one position form a chain, which stops at its first fault as a
run of separate calls would, and a check asks about all its positions in one
request.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from grader import games
from grader.games import Move, Path, SearchGame, State
from grader.harness.runtime.faults import StudentFault
from grader.harness.runtime.plugin import BoundStudent
from grader.harness.runtime.steps import Reply, Step, Target, call_step, inspect_step

MOST_TRACED = 20_000  # counted calls a traced case may make (a failing case is small)
# ``answer(state, path)``: what the student's code gave on a position.
Answer = Callable[[State, Path], Any]


class Ref:
    """A queued step; its reply once it has run."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.reply: Reply | None = None

    @property
    def target(self) -> Target:
        """Where the worker finds the step's value: in its chain until it has
        run, then among the kept objects."""
        return ("step", self.index) if self.reply is None else ("handle", self.reply["handle"])

    @property
    def value(self) -> Any:
        assert self.reply is not None  # the step has run
        return self.reply["value"]

    @property
    def returned_self(self) -> bool:
        """Whether the call returned the very object it was called on (by the
        ids the supervisor checked)."""
        assert self.reply is not None  # the step has run
        same: bool = self.reply["id"] == self.reply["on"]  # ids: checked numbers
        return same


class Steps:
    """Calls queued for one chain of a request."""

    def __init__(self, student: BoundStudent) -> None:
        self.student = student
        self.chain: list[Step] = []
        self.refs: list[Ref] = []

    def add(self, step: Step) -> Ref:
        self.refs.append(Ref(len(self.chain)))
        self.chain.append(step)
        return self.refs[-1]

    def answered(self, outcome: tuple[list[Reply], StudentFault | None]
                 ) -> StudentFault | None:
        """Fill in the replies of a chain that ran; the fault that stopped it, or None."""
        replies, fault = outcome
        for ref, reply in zip(self.refs, replies, strict=False):  # replies stop at a fault
            ref.reply = reply
        if fault:
            fault.step = len(replies)  # the index of the step that failed
        self.chain, self.refs = [], []
        return fault

    def run(self) -> None:
        """Send the queued calls, if any, as one request; raise the fault that
        stopped them."""
        if not self.chain:
            return
        fault = self.answered(self.student.run([self.chain])[0])
        if fault:
            raise fault


    def trace(self, ref: Ref) -> list[tuple[str, str]]:
        """Run the queued calls, one of them ``ref``, asked with ``trace=True``: its
        counted calls in order, as far as it got (a fault keeps what it traced)."""
        try:
            self.run()
        except StudentFault as fault:
            return getattr(fault, "trace", [])
        assert ref.reply is not None  # it ran
        trace: list[tuple[str, str]] = ref.reply["trace"]
        return trace


def _values(wanted: Ref | list[Ref]) -> Any:
    return [ref.value for ref in wanted] if isinstance(wanted, list) else wanted.value


class Probe:
    def __init__(self, student: BoundStudent, module: str) -> None:
        self.student = student
        self.module = module

    def steps(self) -> Steps:
        return Steps(self.student)

    def run_plans(self, plans: Sequence[Steps]) -> list[StudentFault | None]:
        """Send the calls queued on many ``Steps`` as one request: for each, the
        fault that stopped its chain, or None."""
        if not plans:
            return []
        outcomes = self.student.run([steps.chain for steps in plans])
        return [steps.answered(outcome) for steps, outcome in zip(plans, outcomes, strict=True)]

    def ask(self, positions: Iterable[tuple[State, Path]],
            script: Callable[[Any, State, Path], Ref | list[Ref]],
            pick: Callable[[Any], Any] = _values) -> Answer:
        """``answer(state, path)`` for ``checks.collect``, all asked in one request.

        ``script(steps, state, path)`` queues a position's calls on fresh
        ``steps`` and returns the Ref (or a list of Refs) that makes the
        answer; ``answer`` gives ``pick`` of it, or raises the fault that
        stopped the position's calls.
        """
        plans = {path: (self.steps(), state) for state, path in positions}
        wanted = {path: script(steps, state, path) for path, (steps, state) in plans.items()}
        faults = dict(zip(plans, self.run_plans([steps for steps, _ in plans.values()]),
                          strict=True))

        def answer(state: State, path: Path) -> Any:
            fault = faults[path]
            if fault:
                raise fault
            return pick(wanted[path])

        return answer


class SearchProbe(Probe):
    """The student's search functions of ``module``, called on positions of the
    exercise's game (``exercise.toml``'s ``game``, which the worker's stand-ins
    play too): ``game``, which the checks judge by."""

    def __init__(self, student: BoundStudent, module: str) -> None:
        super().__init__(student, module)
        self.game: SearchGame = games.load(student.student.game)

    def _ask(self, name: str, positions: Iterable[tuple[State, Path]], extra: tuple[object, ...],
             count_in: str | None, pick: Callable[[Ref], Any] = _values,
             trusted: Iterable[str] = ()) -> Answer:
        # the stand-ins take a depth when the function asked does
        def one_call(steps: Steps, state: State, path: Path) -> Ref:
            return steps.add(call_step(("module", self.module), name,
                                       {"trusted": self.game.to_data(state)}, *extra,
                                       count_in=count_in, trusted=trusted,
                                       depth_limited=bool(extra),
                                       root=self.game.label(state) if trusted else None))

        return self.ask(positions, one_call, pick)

    def values(self, name: str, positions: Iterable[tuple[State, Path]], *extra: object,
               trusted: Iterable[str] = ()) -> Answer:
        """The value the student's function returns on each position; the
        functions named in ``trusted`` are the grader's during the call."""
        return self._ask(name, positions, extra, self.module, trusted=trusted)

    def alone(self, name: str, positions: Iterable[tuple[State, Path]], *extra: object,
              other: str) -> Answer:
        """The value of ``name`` while the grader's ``other`` function stands in for
        the student's, and whether ``name`` called it (a function that calls
        itself instead does not)."""
        return self._ask(name, positions, extra, self.module,
                         lambda ref: (ref.value, bool(ref.reply.get("entered"))),  # type: ignore[union-attr]
                         trusted=[other])

    def counted(self, name: str, positions: Iterable[tuple[State, Path]], *extra: object
                ) -> Answer:
        """The value, and the calls it made to a trusted, counting terminal_test."""
        return self._ask(name, positions, extra, self.module,
                         lambda ref: (ref.value, ref.reply["calls"]))  # type: ignore[index]

    def on_tree(self, name: str, tree: object, *extra: object, most: int | None = None
                ) -> tuple[Any, Any]:
        """The value of ``name`` on the root of a drawn tree (``{"tree": ...}``,
        see ``grader.games.tree``), and the calls it made to the counting
        terminal_test (stopped past ``most``); raises the fault that stopped it."""
        steps = self.steps()
        ref = steps.add(call_step(("module", self.module), name, {"trusted": tree}, *extra,
                                  count_in=self.module, depth_limited=bool(extra), most=most))
        steps.run()
        assert ref.reply is not None  # the step ran
        return ref.value, ref.reply["calls"]

    def traced(self, name: str, state: State, *extra: object, trusted: Iterable[str] = ()
               ) -> tuple[Any, list[tuple[str, str]]]:
        """``name(state, *extra)`` asked once more, the grader's functions named
        in ``trusted`` standing in, with its tallies kept in the order they came:
        (its value, or the fault that stopped it; the tallies as far as it got)."""
        trusted = list(trusted)
        steps = self.steps()
        ref = steps.add(call_step(("module", self.module), name,
                                  {"trusted": self.game.to_data(state)}, *extra,
                                  count_in=self.module, trusted=trusted,
                                  depth_limited=bool(extra), most=MOST_TRACED, trace=True,
                                  root=self.game.label(state) if trusted else None))
        try:
            steps.run()
        except StudentFault as fault:
            return fault, getattr(fault, "trace", [])
        assert ref.reply is not None  # it ran
        return ref.value, ref.reply["trace"]

    def plain(self, name: str, positions: Iterable[tuple[State, Path]]) -> Answer:
        """The value, with the student's own helpers left in place."""
        return self._ask(name, positions, (), None)


class GameSteps(Steps):
    """Calls on the student's own GameState, queued for one chain."""

    def __init__(self, student: BoundStudent, module: str) -> None:
        super().__init__(student)
        self.module = module

    def new(self) -> Ref:
        return self.add(call_step(("module", self.module), "GameState", keep=True))

    def play(self, state: Ref, move: Move) -> Ref:
        return self.add(call_step(state.target, "forecast_move", {"tuple": list(move)},
                                  keep=True))

    def moves(self, state: Ref) -> Ref:
        return self.add(call_step(state.target, "get_legal_moves"))

    def replay(self, path: Path) -> Ref:
        """A fresh state with ``path`` played on it."""
        state = self.new()
        for move in path:
            state = self.play(state, move)
        return state

    def shares(self, a: Ref, b: Ref) -> Ref:
        """Paths of the mutable parts that two kept states have in common."""
        return self.add(inspect_step("shares", a.target, b.target))


class GameProbe(Probe):
    def __init__(self, student: BoundStudent, module: str = "gamestate") -> None:
        super().__init__(student, module)

    def steps(self) -> GameSteps:
        return GameSteps(self.student, self.module)
