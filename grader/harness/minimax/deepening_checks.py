"""The checks of the iterative_deepening suite.

Every case is a position and a budget of ticks (``deepening.budgets``); the
student's ``get_action`` runs once a session on each, on the grader's own
state, with the grader's clock and counting terminal_test, and each test
judges one side of the same runs: the move, the depths searched, the
fallback move, the time used.
"""

from collections.abc import Callable
from typing import Any

from grader.contracts.protocol import Tested, describe
from grader.games import Path, State, isolation
from grader.harness.minimax import checks, deepening, mistakes
from grader.harness.minimax.checks import Observation
from grader.harness.minimax.deepening import Deepened, DeepFlaws
from grader.harness.minimax.probes import SearchProbe
from grader.harness.minimax.search import Search
from grader.harness.runtime.student import StudentFault, TooManyCalls, call_step

FUNCTION = "get_action"
CASES = "cases (position and time)"
# (the position's key, budget) -> (move, calls), or the fault that stopped the run
_RUNS: dict[tuple[object, int], Any] = {}
MOST_RESTARTS = 64  # of the worker, after runs stopped for too many terminal tests


def _run(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    """Run get_action on every case not run yet this session, each case a chain.

    A run stopped for too many terminal tests ends its request (the worker is
    stopped); the cases after it are sent again, so that a search that never
    ends on a few positions loses those, not the rest."""
    wanted = [(state, budget) for state, _path in positions
              for budget, _ in deepening.budgets(state)
              if (isolation.key(state), budget) not in _RUNS]
    for _ in range(MOST_RESTARTS):
        if not wanted:
            return
        wanted = _run_until_stopped(probe, wanted)
    for state, budget in wanted:
        _RUNS[isolation.key(state), budget] = TooManyCalls(
            f"not run: get_action was stopped for too many terminal tests on {MOST_RESTARTS} "
            "cases before this one")


def _run_until_stopped(probe: SearchProbe, wanted: list[tuple[State, int]]
                       ) -> list[tuple[State, int]]:
    """Run the cases in one request; those left when a run was stopped."""
    plans, refs = [], []
    for state, budget in wanted:
        steps = probe.steps()
        refs.append(steps.add(call_step(
            ("module", probe.module), FUNCTION, {"trusted": isolation.to_data(state)},
            {"trusted": {"clock": budget}}, count_in=probe.module,
            most=deepening.most_calls(state))))
        plans.append(steps)
    for at, ((state, budget), ref, fault) in enumerate(zip(wanted, refs, probe.run_plans(plans),
                                                          strict=True)):
        _RUNS[isolation.key(state), budget] = fault or (ref.value, ref.reply["calls"])  # type: ignore[index]
        if isinstance(fault, TooManyCalls):
            return wanted[at + 1:]
    return []


def observe(probe: SearchProbe, positions: list[tuple[State, Path]],
            agrees: Callable[[State, int, int, Any], bool],
            expected: Callable[[State, int, int], str], fallback: bool | None = None
            ) -> list[Observation]:
    """The runs judged: ``agrees(state, budget, depth, (move, calls))``; only
    the cases where no depth fits (``fallback`` True), or only the others
    (False), or all (None)."""
    _run(probe, positions)
    stub = _untouched()
    observations = []
    for state, path in positions:
        for budget, depth in deepening.budgets(state):
            if fallback is not None and fallback != (depth == 0):
                continue
            answer = _RUNS[isolation.key(state), budget]
            ok = not stub and not isinstance(answer, StudentFault) and agrees(state, budget, depth,
                                                                             answer)
            observation = Observation(state, path, answer, ok, {"time_left() at the start":
                                                                f"{budget} ticks"})
            observation.extra["depths that fit"] = depth and f"1 to {depth}" or "none"
            if not ok:
                observation.expected = expected(state, budget, depth)
            observations.append(observation)
    return observations


def _untouched() -> bool:
    """The starter: no move and not one terminal test in any run (spending no
    time is then no merit)."""
    return all(answer == (None, Tested()) for answer in _RUNS.values())


def _budget(observation: Observation) -> int:
    return int(observation.extra["time_left() at the start"].split()[0])


def _models(observation: Observation, flaws: DeepFlaws) -> list[Deepened]:
    """The model's runs, with each threshold a student may have chosen."""
    return [deepening.deepen(observation.state, _budget(observation), threshold, flaws)
            for threshold in deepening.THRESHOLDS]


def _diagnose(observations: list[Observation],
              alike: Callable[[Deepened, Observation], bool]) -> list[str]:
    def likelihood(flaws: DeepFlaws, observation: Observation) -> float:
        runs = _models(observation, flaws)
        if checks.raised(observation):  # only a search that never ends is modelled
            endless = isinstance(observation.answer, TooManyCalls)
            return float(endless and any(run.endless for run in runs))
        return float(any(not run.endless and alike(run, observation) for run in runs))

    if _untouched():
        return ["stub"]
    return mistakes.diagnose(deepening.MODELS, likelihood, observations)


def _legal(state: State, move: object) -> bool:
    return checks.is_move(move) and move in isolation.legal_moves(state)


def _best(state: State, depth: int) -> set[Any]:
    return Search().best_moves(state, depth)


def check_moves(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    observations = observe(
        probe, positions, lambda s, b, d, answer: _legal(s, answer[0]) and answer[0] in _best(s, d),
        lambda s, b, d: (f"a best move at depth {d}: "
                         + ", ".join(f"({x}, {y})" for x, y in sorted(_best(s, d)))),
        fallback=False)
    checks.verdict(f"The move of {FUNCTION}", observations,
                   lambda found: _diagnose(found, lambda run, o: run.move == o.answer[0]),
                   shown=lambda answer: describe(answer[0]), cases=CASES)


def check_depths(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    def agrees(state: State, budget: int, depth: int, answer: Any) -> bool:
        return deepening.searched_as(state, answer[1], list(range(1, depth + 1)), depth + 1)

    def alike(run: Deepened, observation: Observation) -> bool:
        return deepening.searched_as(observation.state, observation.answer[1], run.finished,
                                     run.cut)

    observations = observe(
        probe, positions, agrees,
        lambda s, b, d: (f"the terminal tests of depths 1 to {d} in full, then part of depth "
                         f"{d + 1}" if d else "part of the terminal tests of depth 1"))
    checks.verdict(f"The depths {FUNCTION} searched", observations,
                   lambda found: _diagnose(found, alike),
                   shown=lambda answer: f"{answer[1]} terminal tests of other depths",
                   cases=CASES)


def check_fallback(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    def alike(run: Deepened, observation: Observation) -> bool:
        move = observation.answer[0]
        return run.move == move or run.move is None and not _legal(observation.state, move)

    observations = observe(probe, positions, lambda s, b, d, answer: _legal(s, answer[0]),
                           lambda s, b, d: "a legal move (the first, say)", fallback=True)
    checks.verdict(f"The move of {FUNCTION}", observations,
                   lambda found: _diagnose(found, alike),
                   shown=lambda answer: describe(answer[0]), cases=CASES)


def check_in_time(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    def alike(run: Deepened, observation: Observation) -> bool:
        return bool(run.calls == observation.answer[1])

    # A search that reads the clock just after each terminal test makes one
    # when it starts with no time left: that one is allowed.
    observations = observe(probe, positions,
                           lambda s, b, d, answer: answer[1].total() <= max(b, 1),
                           lambda s, b, d: "at most 1 terminal test" if b <= 1 else
                           f"at most {b} terminal tests")
    checks.verdict(f"The time {FUNCTION} used", observations,
                   lambda found: _diagnose(found, alike),
                   shown=lambda answer: f"{answer[1]} terminal tests", cases=CASES)



