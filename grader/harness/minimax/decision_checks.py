"""Checks shared by the decision and depth_limit suites.

Both call the student's ``minimax_decision`` on trusted positions, with a
trusted, counting ``terminal_test`` swapped into the student's module, and
compare the move (any of the equally best is right) and, for the depth
limit, the number of terminal tests, with the reference search.
"""

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from grader.contracts.protocol import Tested, describe
from grader.games import Path, State, isolation
from grader.harness.minimax import checks, mistakes
from grader.harness.minimax.checks import Observation
from grader.harness.minimax.probes import Answer, SearchProbe
from grader.harness.minimax.search import Flaws, Search, Stuck
from grader.harness.runtime.student import Raised, StudentFault

FUNCTION = "minimax_decision"
EVIDENCE = 8  # wrong cases whose children's scores the diagnosis asks for
# A decision: the terminal tests it made, and the moves it may choose.
Decision = tuple[Tested, set[tuple[int, int]]]
Positions = Sequence[tuple[State, Path]]
_REFERENCE: dict[tuple[Hashable, int | None], Decision] = {}


class NotAMove(Raised):
    """An answer that is no move, nor a number, nor None (a list [x, y], a dict):
    a failed call, with a plain message; no model is asked about it."""

    def __init__(self, value: object) -> None:
        Exception.__init__(self, f"{FUNCTION} returned {describe(value, 100)} where a "
                                 "move (x, y) tuple is due")
        self.name, self.raised = FUNCTION, {"type": "NotAMove", "message": str(self)}


def _reference(state: State, depth: int | None) -> Decision:
    """The reference decision on ``state``: (terminal tests, best moves). The
    moves and the counts are checked on the same positions: search once."""
    key = (isolation.key(state), depth)
    if key not in _REFERENCE:
        _REFERENCE[key] = Search().decision(state, depth)
    return _REFERENCE[key]


def moves_text(moves: Iterable[tuple[int, int]]) -> str:
    return "one of " + ", ".join(f"({x}, {y})" for x, y in sorted(moves))


def _ask(probe: SearchProbe, positions: Positions, depth: int | None) -> Answer:
    extra = () if depth is None else (depth,)
    return probe.counted(FUNCTION, positions, *extra)


def _ask_move(probe: SearchProbe, positions: Positions, depth: int | None) -> Answer:
    """``_ask``, where an answer of the wrong kind is a failed call."""
    answers = _ask(probe, positions, depth)

    def ask(state: State, path: Path) -> Any:
        answer = answers(state, path)
        move = answer[0]
        if not (checks.is_move(move) or move is None or _is_number(move)):
            raise NotAMove(move)
        return answer

    return ask


def _label(depth: int | None) -> dict[str, Any] | None:
    return {"depth": depth} if depth is not None else None


def _depth(observation: Observation) -> Any:
    return observation.extra.get("depth")


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _stuck_alike(model_raised: bool, observation: Observation) -> bool:
    """Whether the model and the student both raised (a TypeError on a None) or
    neither did."""
    if checks.raised(observation):
        return model_raised and observation.answer.raised.get("type") == "TypeError"
    return not model_raised


def _model_decision(flaws: Flaws, observation: Observation) -> Decision | type[Stuck]:
    """The model's (terminal tests, best moves), or Stuck."""
    try:
        return Search(flaws).decision(observation.state, _depth(observation))
    except Stuck:
        return Stuck


def _move_likelihood(flaws: Flaws, observation: Observation) -> float:
    """The chance that the model picks the student's move (ties split evenly)."""
    decided = _model_decision(flaws, observation)
    if not _stuck_alike(decided is Stuck, observation):
        return 0
    if decided is Stuck:
        return 1
    assert isinstance(decided, tuple)  # not Stuck
    best = decided[1]
    return 1 / len(best) if observation.answer[0] in best else 0


def _random_player(observation: Observation) -> float:
    return 1 / len(observation.state.get_legal_moves())


def _best_score(observation: Observation) -> float:
    return max(Search().scores(observation.state, _depth(observation)).values())


def _child_values(probe: SearchProbe, bad: list[Observation]
                  ) -> list[tuple[State, tuple[int, ...], Any]]:
    """Evidence for the diagnosis of wrong moves: the student's own min_value on
    the children of the first wrong cases, as the decision scores them:
    [(child, depth, value)]; empty when the module has no working min_value."""
    asked = [(o.state.forecast_move(m), o.path + (m,), _depth(o))
             for o in bad[:EVIDENCE] for m in o.state.get_legal_moves()]
    found: list[tuple[State, tuple[int, ...], Any]] = []
    for depth in dict.fromkeys(d for _, _, d in asked):
        positions = [(child, path) for child, path, d in asked if d == depth]
        extra = () if depth is None else (depth - 1,)
        answers = probe.values("min_value", positions, *extra)
        try:
            found += [(child, extra, answers(child, path)) for child, path in positions]
        except StudentFault:
            return []
    return found


def _scores_alike(flaws: Flaws, evidence: list[tuple[State, tuple[int, ...], Any]]) -> bool:
    return all(Search(flaws).outcome("min_value", child, *extra) == value
               for child, extra, value in evidence)


def _diagnose_moves(observations: list[Observation], probe: SearchProbe | None = None
                    ) -> list[str]:
    bad = checks.wrong(observations)
    if any(isinstance(o.answer, NotAMove) for o in bad):
        return []
    if not any(checks.raised(o) for o in bad):
        moves = [o.answer[0] for o in bad]
        if all(move is None for move in moves) and len(bad) == len(observations):
            return ["stub"]
        if all(_is_number(move) and move == _best_score(o)
               for move, o in zip(moves, bad, strict=True)):
            return ["returns_score"]  # the model: the best score instead of its move
    # a move says little: a model must also score the children as the student did
    evidence = _child_values(probe, bad) if probe else []
    models = [(m, f) for m, f in mistakes.SEARCH_MODELS if _scores_alike(f, evidence)]
    return mistakes.diagnose(models, _move_likelihood, observations, _random_player)


def check_moves(probe: SearchProbe, positions: Positions,
                depths: Iterable[int | None] = (None,)) -> None:
    """The move is one of the best at every position (and depth)."""
    observations: list[Observation] = []
    for depth in depths:
        observations += checks.collect(
            positions, _ask_move(probe, positions, depth),
            # (``collect`` calls the lambdas at once, with this ``depth``)
            lambda s, answer: (checks.is_move(answer[0])
                               and answer[0] in _reference(s, depth)[1]),  # noqa: B023
            lambda s: moves_text(_reference(s, depth)[1]),  # noqa: B023
            _label(depth))
    checks.verdict(f"The move of {FUNCTION}", observations,
                   lambda found: _diagnose_moves(found, probe),
                   shown=lambda answer: describe(answer[0]))


def _reproduces_count(flaws: Flaws, observation: Observation) -> bool:
    """The model makes the student's number of terminal tests, and can pick the
    student's move (a right count with a wrong move is another mistake)."""
    decided = _model_decision(flaws, observation)
    if not _stuck_alike(decided is Stuck, observation):
        return False
    if decided is Stuck:
        return True
    assert isinstance(decided, tuple)  # not Stuck
    move, calls = observation.answer
    return calls == decided[0] and (not checks.is_move(move) or move in decided[1])


def _counts(probe: SearchProbe, positions: Positions, depths: Iterable[int | None]
            ) -> list[Observation]:
    observations: list[Observation] = []
    for depth in depths:
        observations += checks.collect(
            positions, _ask(probe, positions, depth),
            # (``collect`` calls the lambdas at once, with this ``depth``)
            lambda s, answer: answer[1] == _reference(s, depth)[0],  # noqa: B023
            lambda s: f"{_reference(s, depth)[0]} calls to terminal_test",  # noqa: B023
            _label(depth))
    return observations


def check_counts(probe: SearchProbe, positions: Positions, depths: Iterable[int | None],
                 evidence: tuple[Positions, Iterable[int | None]] | None = None) -> None:
    """The search calls terminal_test exactly as often as the reference.

    ``evidence`` (positions, depths), asked only when the test fails, widens
    what the diagnosis sees where the test itself asks little."""
    observations = _counts(probe, positions, depths)

    def diagnose(found: list[Observation]) -> list[str]:
        if evidence and checks.wrong(found):
            found = found + _counts(probe, *evidence)
        return mistakes.diagnose(mistakes.SEARCH_MODELS, _reproduces_count, found)

    checks.verdict(f"The number of terminal tests in {FUNCTION}", observations, diagnose,
                   shown=lambda answer: f"{answer[1]} calls to terminal_test")
