"""The checks of the iterative_deepening suite.

Every case is a position and a clock (``deepening.clocks``): a budget of
ticks, each terminal test one, or, for the time used, a tick larger than any
threshold, on which every correct search makes the same tests; the
student's ``get_action`` runs once a session on each, on the grader's own
state, with the grader's clock and counting terminal_test, and each test
judges one side of the same runs: the move, the depths searched, the
fallback move, the time used. The game is the exercise's (``probe.game``).
"""

from collections.abc import Callable
from typing import Any

from grader.contracts.protocol import Tested, describe
from grader.games import Game, Path, State, tree
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import Fact
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson import alphabeta, deepening, trees
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.deepening import Deepened, DeepFlaws, searched_as
from grader.harness.lesson.search import Search
from grader.harness.runtime.faults import Raised, StudentFault, TooManyCalls
from grader.harness.runtime.steps import call_step

FUNCTION = "get_action"
CASES = "cases (position and time)"
# (game, the position's key, clock) -> (move, calls), or the fault that stopped the run
_RUNS: dict[tuple[object, object, deepening.Clock], Any] = {}
MOST_RESTARTS = 64  # of the worker, after runs stopped for too many terminal tests


def _run(probe: SearchProbe, positions: list[tuple[State, Path]], coarse: bool) -> None:
    """Run get_action on every case not run yet this session, each case a chain.

    A run stopped for too many terminal tests ends its request (the worker is
    stopped); the cases after it are sent again, so that a search that never
    ends on a few positions loses those, not the rest."""
    game = probe.game
    wanted = [(state, clock) for state, _path in positions
              for clock, _ in deepening.clocks(state, game, coarse)
              if (game, game.key(state), clock) not in _RUNS]
    for _ in range(MOST_RESTARTS):
        if not wanted:
            return
        wanted = _run_until_stopped(probe, wanted)
    for state, clock in wanted:
        _RUNS[game, game.key(state), clock] = TooManyCalls(
            f"not run: get_action was stopped for too many terminal tests on {MOST_RESTARTS} "
            "cases before this one")


def _run_until_stopped(probe: SearchProbe, wanted: list[tuple[State, deepening.Clock]]
                       ) -> list[tuple[State, deepening.Clock]]:
    """Run the cases in one request; those left when a run was stopped."""
    game, plans, refs = probe.game, [], []
    for state, clock in wanted:
        steps = probe.steps()
        refs.append(steps.add(call_step(
            ("module", probe.module), FUNCTION, {"trusted": game.to_data(state)},
            clock.sent(), count_in=probe.module,
            most=deepening.most_calls(state, game))))
        plans.append(steps)
    for at, ((state, clock), ref, fault) in enumerate(zip(wanted, refs, probe.run_plans(plans),
                                                          strict=True)):
        _RUNS[game, game.key(state), clock] = fault or (ref.value, ref.reply["calls"])  # type: ignore[index]
        if isinstance(fault, TooManyCalls):
            return wanted[at + 1:]
    return []


def observe(probe: SearchProbe, positions: list[tuple[State, Path]],
            agrees: Callable[[State, deepening.Clock, int, Any], bool],
            expected: Callable[[State, deepening.Clock, int], str], fallback: bool | None = None,
            searched: bool = False, coarse: bool = False) -> list[Observation]:
    """The runs judged: ``agrees(state, clock, depth, (move, calls))``; only
    the cases where no depth fits (``fallback`` True), or only the others
    (False), or all (None); the coarse clocks' cases too (``coarse``). A test
    of how the search went (``searched``) judges a run whose timeout escaped
    get_action by what it searched."""
    _run(probe, positions, False)
    if coarse:
        _run(probe, positions, True)
    stub, game = _untouched(), probe.game
    observations = []
    for state, path in positions:
        cases = deepening.clocks(state, game) + (deepening.clocks(state, game, True) if coarse
                                                 else [])
        for clock, depth in cases:
            if fallback is not None and fallback != (depth == 0):
                continue
            answer = _RUNS[game, game.key(state), clock]
            if searched:
                answer = _as_searched(answer, clock)
            ok = not stub and not isinstance(answer, StudentFault) and agrees(state, clock, depth,
                                                                             answer)
            observation = Observation(state, path, answer, ok, _said(clock))
            observation.extra["depths that fit"] = depth and f"1 to {depth}" or "none"
            if not ok:
                observation.expected = expected(state, clock, depth)
            observations.append(observation)
    return observations


def _as_searched(answer: Any, clock: deepening.Clock) -> Any:
    """A run that raised once the clock was down to a threshold's worth of
    ticks as (no move, the terminal tests made before): its search stopped
    for the time, and only the move is lost. Any other answer as it is."""
    if isinstance(answer, Raised) and (clock.budget - clock.tick * answer.calls.total()
                                       < deepening.MOST_THRESHOLD):
        return None, answer.calls
    return answer


def _untouched() -> bool:
    """The starter: no move and not one terminal test in any run (spending no
    time is then no merit)."""
    return all(answer == (None, Tested()) for answer in _RUNS.values())


_TICK = "each terminal test takes"  # said only where it is not one tick


def _said(clock: deepening.Clock) -> dict[str, Any]:
    """The clock as the report shows it with the case."""
    said = {"time_left() at the start": f"{clock.budget} ticks"}
    if clock.tick != 1:
        said[_TICK] = f"{clock.tick} ticks"
    return said


def _clock(observation: Observation) -> deepening.Clock:
    """The clock the case was run with, read back from what the report shows."""
    extra = observation.extra
    return deepening.Clock(int(extra["time_left() at the start"].split()[0]),
                           int(extra.get(_TICK, "1").split()[0]))


def _models(observation: Observation, flaws: DeepFlaws, game: Game) -> list[Deepened]:
    """The model's runs, with each threshold a student may have chosen."""
    return [deepening.deepen(observation.state, _clock(observation), threshold, flaws, game)
            for threshold in deepening.THRESHOLDS]


def _diagnose(observations: list[Observation], alike: Callable[[Deepened, Observation], bool],
              game: Game) -> list[str]:
    def likelihood(flaws: DeepFlaws, observation: Observation) -> float:
        runs = _models(observation, flaws, game)
        if checks.raised(observation):
            return float(any(_fails_as(run, observation.state, observation.answer, game)
                             for run in runs))
        return float(any(not run.endless and not run.escaped and alike(run, observation)
                         for run in runs))

    if _untouched():
        return ["stub"]
    return mistakes.diagnose(deepening.MODELS, likelihood, observations)


def _fails_as(run: Deepened, state: State, fault: StudentFault, game: Game) -> bool:
    """Whether the model's run fails as the student's did: it went on far
    past the clock and was stopped, or its timeout escaped get_action after
    the same search."""
    if isinstance(fault, TooManyCalls):
        return run.endless
    return run.escaped and isinstance(fault, Raised) and deepening.searched_as(
        state, fault.calls, run.finished, run.cut, game)


def _diagnose_moves(observations: list[Observation],
                    alike: Callable[[Deepened, Observation], bool], game: Game
                    ) -> checks.Diagnosis:
    """``_diagnose`` of the moves, unless one is of a kind no model gives (a
    list [x, y], say): then the report says what is due, and names nothing."""
    odd = [o.answer[0] for o in checks.wrong(observations)
           if not checks.raised(o) and not checks.move_like(o.answer[0])]
    if odd:
        return [], checks.not_a_move(FUNCTION, odd[0]) + "."
    return _diagnose(observations, alike, game)


def _legal(game: Game, state: State, move: object) -> bool:
    return checks.is_move(move) and move in game.legal_moves(state)


def _best(game: Game, state: State, depth: int) -> set[Any]:
    return alphabeta.best_moves(state, depth, game)


def check_moves(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    game = probe.game
    observations = observe(
        probe, positions,
        lambda s, b, d, answer: _legal(game, s, answer[0]) and answer[0] in _best(game, s, d),
        lambda s, b, d: (f"a best move at depth {d}: "
                         + ", ".join(f"({x}, {y})" for x, y in sorted(_best(game, s, d)))),
        fallback=False)
    # A model is named for a move only where it searched as the student's did:
    # a move alone fits a mistake that finishes other depths by chance (the
    # fallback move, say, which a window set to the value returns as well).
    checks.verdict(f"The move of {FUNCTION}", observations,
                   lambda found: _diagnose_moves(found, lambda run, o: run.move == o.answer[0]
                                                 and _searched_alike(run, o, game), game),
                   shown=lambda answer: describe(answer[0]), cases=CASES,
                   detail=lambda first: on_a_tree(probe), draw=game.draw)


def check_depths(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    game = probe.game

    def agrees(state: State, clock: deepening.Clock, depth: int, answer: Any) -> bool:
        return deepening.searched_as(state, answer[1], list(range(1, depth + 1)), depth + 1,
                                     game)

    observations = observe(
        probe, positions, agrees,
        lambda s, b, d: (f"the terminal tests of depths 1 to {d} in full, then part of depth "
                         f"{d + 1}" if d else "part of the terminal tests of depth 1"),
        searched=True)
    checks.verdict(f"The depths {FUNCTION} searched", observations,
                   lambda found: _diagnose(found, lambda run, o: _searched_alike(run, o, game),
                                           game),
                   shown=lambda answer: f"{answer[1]} terminal tests of other depths",
                   cases=CASES, draw=game.draw,
                   facts=lambda found: [fact for o in checks.wrong(found)[:1]
                                        if (fact := depths_fact(o, game))])


def _searched_alike(run: Deepened, observation: Observation, game: Game) -> bool:
    """Whether the student's terminal tests are those of the model's run: its
    finished depths in full, then part of the one it was cut in."""
    return deepening.searched_as(observation.state, observation.answer[1], run.finished,
                                 run.cut, game)


def _depths(first: int, last: int) -> str:
    return f"depth {first}" if first == last else f"depths {first} to {last}"


def depths_fact(observation: Observation, game: Game) -> Fact | None:
    """The depths whose terminal tests the student's run made, each in full,
    then part of the next one, if its tests are those of a run of whole
    depths one after another (starting at 1, or later); else nothing."""
    if checks.raised(observation) or observation.answer is None or not observation.answer[1]:
        return None
    calls, state = observation.answer[1], observation.state
    # Whole depths first: a depth's tests hold those of the one before, so
    # depth 2 in full is depth 1 and part of depth 2 as well.
    for partly in (False, True):
        for first in deepening.DEPTHS:
            for last in range(max(deepening.DEPTHS), first - 2, -1):
                finished, cut = list(range(first, last + 1)), last + 1 if partly else None
                if (finished or cut) and searched_as(state, calls, finished, cut, game):
                    return _depths_said(first, last, cut, observation)
    return None


def _depths_said(first: int, last: int, cut: int | None, observation: Observation) -> Fact:
    made = _depths(first, last) + " in full" if last >= first else ""
    part = f"part of depth {cut}" if cut is not None else ""
    made = f"{made}, then {part}" if made and part else made or part
    fits = observation.extra["depths that fit"]
    due = f"depths {fits} in full, then part of the next" if fits != "none" else \
        "part of depth 1"
    skipped = f" (none of {_depths(1, first - 1)})" if first > 1 else ""
    # No hint: skipping a depth and searching each one a level too deep test alike.
    return Fact(None,
                f"On the position above, with {observation.extra['time_left() at the start']}, "
                f"your {FUNCTION} makes the terminal tests of {made}{skipped}; a correct one, "
                f"those of {due}")


def check_fallback(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    game = probe.game

    def alike(run: Deepened, observation: Observation) -> bool:
        move = observation.answer[0]
        return run.move == move or run.move is None and not _legal(game, observation.state, move)

    observations = observe(probe, positions, lambda s, b, d, answer: _legal(game, s, answer[0]),
                           lambda s, b, d: "a legal move (the first, say)", fallback=True)
    checks.verdict(f"The move of {FUNCTION}", observations,
                   lambda found: _diagnose_moves(found, alike, game),
                   shown=lambda answer: describe(answer[0]), cases=CASES,
                   detail=lambda first: on_a_tree(probe), draw=game.draw)


def check_in_time(probe: SearchProbe, positions: list[tuple[State, Path]]) -> None:
    game = probe.game

    def alike(run: Deepened, observation: Observation) -> bool:
        return bool(run.calls == observation.answer[1])

    # The coarse clocks tell a search that reads the clock and goes on (in one
    # of its functions, say) from one with another threshold.
    observations = observe(probe, positions,
                           lambda s, c, d, answer: answer[1].total() <= c.most_tests(),
                           lambda s, c, d: "at most 1 terminal test" if c.most_tests() == 1 else
                           f"at most {c.most_tests()} terminal tests", searched=True, coarse=True)
    checks.verdict(f"The time {FUNCTION} used", observations,
                   lambda found: _diagnose(found, alike, game),
                   shown=lambda answer: f"{answer[1]} terminal tests", cases=CASES,
                   draw=game.draw, facts=lambda found: [
                       fact for o in checks.wrong(found)[:1] for fact in [clock_fact(o)] if fact])


def _ordinal(n: int) -> str:
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def clock_fact(observation: Observation) -> Fact | None:
    """What a search that overran its time did with the clock, read off its
    terminal tests: each takes its ticks, so past the budget every one of them
    was made with time_left() at 0 or less, below any threshold (no hint: a clock not
    read, read after the test or in one function only all do this)."""
    answer = observation.answer
    if not isinstance(answer, tuple) or not isinstance(answer[1], Tested):
        return None  # stopped, or no search at all: the answer says so
    clock, made = _clock(observation), answer[1].total()
    allowed = clock.most_tests() if clock.budget else 0  # tests made with time left
    late = made - allowed
    each = "one" if clock.tick == 1 else str(clock.tick)
    start = f"time_left() started at {clock.budget} ticks and each terminal test takes {each}, " \
        f"so after the {_ordinal(allowed)} it returned {clock.budget - allowed * clock.tick}" \
        if clock.budget else "time_left() returned 0 from the start"
    more = f"{late} more terminal test{'s' if late > 1 else ''} after that ({made} in all)" \
        if clock.budget else f"{made} terminal tests"
    return Fact(None, f"On the position above, {start}, below any TIMER_THRESHOLD; yet your "
                      f"search made {more}, without raising SearchTimeout: a node it searched "
                      "then made its terminal test without reading time_left() first, or read "
                      "it and went on")


# -- the smallest tree -------------------------------------------------------------

# On a drawn tree a terminal test spends more ticks than any threshold, so
# that a clock fits depths 1 to d and not d + 1 whatever the threshold, on
# trees of a handful of nodes: the search is stopped at its second terminal
# test of depth d + 1, which must have one.
TICK = deepening.COARSE_TICK
# A clock read between depths only shows on trees three levels deep, rarer
# among those drawn than the shapes that show a search's mistakes.
EXAMPLES = 280


def _tree_clock(drawn: tree.Tree, finished: int) -> deepening.Clock | None:
    """A clock on which the reference finishes depths 1 to ``finished`` and no
    more; None where depth ``finished + 1`` makes a single terminal test."""
    root = tree.from_data(drawn)
    return deepening.clock_past([AlphaBeta(None, tree).decision(root, depth)[0].total()
                                 for depth in range(1, finished + 2)], finished)


def _clocked(case: tuple[tree.Tree, int]) -> trees.Case | None:
    clock = _tree_clock(*case)
    return (case[0], (clock.sent(),)) if clock else None


def _tree_reference(drawn: tree.Tree, extra: tuple[Any, ...]) -> tuple[Deepened, set[Any]]:
    """The reference's run on the tree with the clock sent, and the moves it
    may return: a best one at its deepest finished depth, or any legal one."""
    root = tree.from_data(drawn)
    clock = deepening.Clock(extra[0]["trusted"]["clock"], TICK)
    run = deepening.deepen(root, clock, game=tree)
    if not run.finished:
        return run, set(tree.legal_moves(root))
    return run, Search(None, tree).best_moves(root, run.finished[-1])


def on_a_tree(probe: SearchProbe) -> list[str]:
    """The smallest drawn tree and clock on which the move of get_action is
    not the reference's, once a session."""
    return trees.once((FUNCTION, "move"), lambda: _tree_lines(probe))


def _tree_lines(probe: SearchProbe) -> list[str]:
    from hypothesis import strategies as st  # only once a test failed: a costly import

    cases = st.tuples(trees.trees(), st.integers(0, trees.MAX_DEPTH - 1)).map(_clocked)
    found = trees.smallest(probe, FUNCTION, cases.filter(bool),  # type: ignore[arg-type]
                           lambda drawn, extra, answer: not checks.is_move(answer[0])
                           or answer[0] not in _tree_reference(drawn, extra)[1], EXAMPLES)
    if found is None:
        return []
    run, best = _tree_reference(found.tree, found.extra)
    fits = f"depths 1 to {run.finished[-1]} fit" if run.finished else "not even depth 1 fits"
    lines = trees.shown(found, f"{FUNCTION}(root, time_left)", None, run.calls, best)
    lines.append(f"time_left() started at {found.extra[0]['trusted']['clock']} and dropped by "
                 f"{TICK} at each terminal test: {fits}.")
    return lines
