"""Checks shared by the decision, depth_limit and alphabeta suites.

Each calls the student's decision (``minimax_decision`` or
``alpha_beta_search``) on trusted positions, with a trusted, counting
``terminal_test`` swapped into the student's module, and compares the move
(any of the equally best is right) and, past the decision exercise, the
terminal tests, with the reference search of its kind (a ``Decider``).
"""

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from grader.contracts.protocol import Tested, describe
from grader.games import Game, Path, State, isolation, tree
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import Fact
from grader.harness.checking.probes import Answer, SearchProbe
from grader.harness.lesson import alphabeta, trees
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.known import known
from grader.harness.lesson.search import Flaws, Search, Stuck, values
from grader.harness.lesson.search_facts import ABOVE, smallest_facts, traced_fact
from grader.harness.runtime.faults import Raised, StudentFault

EVIDENCE = 8  # wrong cases whose children's scores the diagnosis asks for
# Mistakes whose models make a decision that another mistake makes as well: a
# root that searches its children one level too deep, or a cutoff one level
# low in both functions; bounds compared wrong, or a window passed swapped.
# The student's own min_value and max_value, called directly, tell them apart:
# such a model is named only where its functions make the same terminal tests.
# The models whose premise (how a function tests and cuts off at one node) is
# checked by calling the student's functions alone before they are named.
CALLED_ALONE = ("root_off_by_one", "bounds_compared_wrong", "cutoff_before_terminal")
ALONE_CASES = 4  # the smallest positions not over they are called on
ALONE_DEPTHS = (0, 1, 2)
# (function, state, arguments after the state, the terminal tests it made)
Called = tuple[str, State, tuple[Any, ...], Any]
# A decision: the terminal tests it made, and the moves it may choose.
Decision = tuple[Tested, set[tuple[int, int]]]
Positions = Sequence[tuple[State, Path]]
_REFERENCE: dict[tuple[str, Hashable, int | None], Decision] = {}


@dataclass(frozen=True)
class Decider:
    """A kind of decision: the student's function, the trusted search that
    models it (``search(flaws)``), and the models of its known mistakes.
    ``child_values``: a wrong move is diagnosed with the student's own
    ``min_value(child, depth)`` as evidence (plain minimax); without it, a
    model must make the student's very terminal tests as well as the move."""

    function: str
    search: Callable[[Any, Game], Search]
    models: Sequence[tuple[str, Flaws]]
    child_values: bool = False
    game: Game = isolation  # the exercise's: checks take it from the probe (``on``)

    def on(self, game: Game) -> "Decider":
        """This kind of decision, on ``game``."""
        return replace(self, game=game)


MINIMAX = Decider("minimax_decision", Search, mistakes.SEARCH_MODELS, child_values=True)
ALPHA_BETA = Decider("alpha_beta_search", AlphaBeta, mistakes.ALPHA_BETA_MODELS)


class NotAMove(Raised):
    """An answer that is no move, nor a number, nor None (a list [x, y], a dict):
    a failed call, with a plain message; no model is asked about it."""

    def __init__(self, function: str, value: object) -> None:
        Exception.__init__(self, checks.not_a_move(function, value))
        self.name, self.raised = function, {"type": "NotAMove", "message": str(self)}


def _reference(decider: Decider, state: State, depth: int | None) -> Decision:
    """The reference decision on ``state``: (terminal tests, best moves: all
    that minimax rates best). The moves and the counts are checked on the
    same positions: search once."""
    key = (decider.function, known(decider.game).key(state), depth)
    if key not in _REFERENCE:
        if decider.search is Search:
            calls, best = Search(game=decider.game).decision(state, depth)
        else:  # the moves of plain minimax, the calls by the decider's own search
            best = alphabeta.best_moves(state, depth, decider.game)
            calls = decider.search(None, decider.game).decision(state, depth)[0]
        _REFERENCE[key] = calls, best
    return _REFERENCE[key]


def moves_text(moves: Iterable[tuple[int, int]]) -> str:
    return "one of " + ", ".join(f"({x}, {y})" for x, y in sorted(moves))


def _ask(decider: Decider, probe: SearchProbe, positions: Positions, depth: int | None
         ) -> Answer:
    extra = () if depth is None else (depth,)
    return probe.counted(decider.function, positions, *extra)


def _ask_move(decider: Decider, probe: SearchProbe, positions: Positions, depth: int | None
              ) -> Answer:
    """``_ask``, where an answer of the wrong kind is a failed call."""
    answers = _ask(decider, probe, positions, depth)

    def ask(state: State, path: Path) -> Any:
        answer = answers(state, path)
        if not checks.move_like(answer[0]):
            raise NotAMove(decider.function, answer[0])
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
        answer = observation.answer
        return model_raised and isinstance(answer, Raised) and answer.raised["type"] == "TypeError"
    return not model_raised


def _model_decision(decider: Decider, flaws: Flaws, observation: Observation
                    ) -> Decision | type[Stuck]:
    """The model's (terminal tests, best moves), or Stuck."""
    try:
        return decider.search(flaws, decider.game).decision(observation.state,
                                                             _depth(observation))
    except Stuck:
        return Stuck


def _move_likelihood(decider: Decider, flaws: Flaws, observation: Observation) -> float:
    """The chance that the model picks the student's move (ties split evenly)."""
    decided = _model_decision(decider, flaws, observation)
    if not _stuck_alike(decided is Stuck, observation):
        return 0
    if decided is Stuck:
        return 1
    assert isinstance(decided, tuple)  # not Stuck
    best = decided[1]
    return 1 / len(best) if observation.answer[0] in best else 0


def _random_player(observation: Observation) -> float:
    return 1 / len(observation.state.get_legal_moves())


def _best_score(decider: Decider, observation: Observation) -> float:
    return max(values(decider.game).scores(observation.state, _depth(observation)).values())


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


def _scores_alike(decider: Decider, flaws: Flaws,
                  evidence: list[tuple[State, tuple[int, ...], Any]]) -> bool:
    return all(Search(flaws, decider.game).outcome("min_value", child, *extra) == value
               for child, extra, value in evidence)


def _called_alone(decider: Decider, probe: SearchProbe, observations: Sequence[Observation]
                  ) -> list[Called] | None:
    """The student's own min_value and max_value, called directly on the
    smallest positions not over at each of ``ALONE_DEPTHS`` (alpha-beta's with
    the window (-inf, inf)), and at depth 0 on a position where the game is
    over below them (whether the terminal test comes before the cutoff), with
    the terminal tests each made; None where one of them fails."""
    rules = known(decider.game)
    states = list({rules.key(o.state): (o.state, o.path) for o in reversed(observations)
                   if not rules.terminal(o.state)}.values())[::-1][:ALONE_CASES]
    window = () if decider.search is Search else (-math.inf, math.inf)
    asked = [(depth, states) for depth in ALONE_DEPTHS] + [(0, _ends(rules, states[:1]))]
    called: list[Called] = []
    for name in ("min_value", "max_value"):
        for depth, cases in asked:
            answers = probe.counted(name, cases, *window, depth)
            try:
                called += [(name, state, (*window, depth), answers(state, path)[1])
                           for state, path in cases]
            except StudentFault:
                return None
    return called


def _ends(rules: Any, states: Positions) -> list[tuple[State, Path]]:
    """A position where the game is over below each of ``states``: its first
    moves played until no move is left."""
    ends = []
    for state, path in states:
        while not rules.terminal(state):
            move = rules.legal_moves(state)[0]
            state, path = rules.play(state, move), (*path, move)
        ends.append((state, path))
    return ends


def _models(decider: Decider, probe: SearchProbe | None, observations: Sequence[Observation]
            ) -> list[tuple[str, Flaws]]:
    """The decider's models, less those of ``CALLED_ALONE`` whose functions,
    called directly, test otherwise than the student's."""
    models = list(decider.models)
    if probe is None or not observations or _depth(observations[0]) is None:
        return models  # (no depth: the decision exercise, whose functions take none)
    called = _called_alone(decider, probe, observations)

    def alike(flaws: Flaws) -> bool:
        if called is None:
            return False
        for name, state, extra, calls in called:
            model = decider.search(flaws, decider.game)
            if model.outcome(name, state, *extra) is Stuck or model.calls != calls:
                return False
        return True

    return [(m, f) for m, f in models if m not in CALLED_ALONE or alike(f)]


def _diagnose_moves(decider: Decider, observations: list[Observation],
                    probe: SearchProbe | None = None) -> list[str]:
    bad = checks.wrong(observations)
    if any(isinstance(o.answer, NotAMove) for o in bad):
        return []
    if not any(checks.raised(o) for o in bad):
        moves = [o.answer[0] for o in bad]
        if all(move is None for move in moves) and len(bad) == len(observations):
            return ["stub"]
        if all(_is_number(move) and move == _best_score(decider, o)
               for move, o in zip(moves, bad, strict=True)):
            return ["returns_score"]  # the model: the best score instead of its move
    models = _models(decider, probe, observations)
    if not decider.child_values:  # a move says little: the calls must agree too
        return mistakes.diagnose(models, _reproducer(decider), observations)
    # a move says little: a model must also score the children as the student did
    evidence = _child_values(probe, bad) if probe else []
    models = [(m, f) for m, f in models if _scores_alike(decider, f, evidence)]
    return mistakes.diagnose(models, lambda flaws, observation: _move_likelihood(
        decider, flaws, observation), observations, _random_player)


def check_moves(probe: SearchProbe, positions: Positions,
                depths: Iterable[int | None] = (None,), decider: Decider = MINIMAX) -> None:
    """The move is one of the best at every position (and depth) of the
    probe's game."""
    decider = decider.on(probe.game)
    observations: list[Observation] = []
    for depth in depths:
        observations += checks.collect(
            positions, _ask_move(decider, probe, positions, depth),
            # (``collect`` calls the lambdas at once, with this ``depth``)
            lambda s, answer: (checks.is_move(answer[0])
                               and answer[0] in _reference(decider, s, depth)[1]),  # noqa: B023
            lambda s: moves_text(_reference(decider, s, depth)[1]),  # noqa: B023
            _label(depth))
    checks.verdict(f"The move of {decider.function}", observations,
                   lambda found: _diagnose_moves(decider, found, probe),
                   shown=lambda answer: describe(answer[0]), draw=decider.game.draw,
                   detail=lambda first: on_a_tree(decider, probe, "move", _depth(first)),
                   facts=_facts(decider, probe))


def _reproducer(decider: Decider) -> Callable[[Flaws, Observation], bool]:
    return lambda flaws, observation: _reproduces_count(decider, flaws, observation)


def _reproduces_count(decider: Decider, flaws: Flaws, observation: Observation) -> bool:
    """The model makes the student's number of terminal tests, and can pick the
    student's move (a right count with a wrong move is another mistake; an
    answer that is no move at all, such as a stub's None, is a move missed)."""
    decided = _model_decision(decider, flaws, observation)
    if not _stuck_alike(decided is Stuck, observation):
        return False
    if decided is Stuck:
        return True
    assert isinstance(decided, tuple)  # not Stuck
    move, calls = observation.answer
    return calls == decided[0] and (
        move is not None and not checks.is_move(move) or move in decided[1])


def _no_search(found: list[Observation]) -> list[str]:
    """The starter: no move and not one terminal test, everywhere."""
    return ["stub"] if all(not checks.raised(o) and o.answer[0] is None and not o.answer[1]
                           for o in found) else []


def _counts(decider: Decider, probe: SearchProbe, positions: Positions,
            depths: Iterable[int | None]) -> list[Observation]:
    observations: list[Observation] = []
    for depth in depths:
        observations += checks.collect(
            positions, _ask(decider, probe, positions, depth),
            # (``collect`` calls the lambdas at once, with this ``depth``)
            lambda s, answer: answer[1] == _reference(decider, s, depth)[0],  # noqa: B023
            lambda s: f"{_reference(decider, s, depth)[0]} calls to terminal_test",  # noqa: B023
            _label(depth))
    return observations


def check_counts(probe: SearchProbe, positions: Positions, depths: Iterable[int | None],
                 evidence: tuple[Positions, Iterable[int | None]] | None = None,
                 decider: Decider = MINIMAX) -> None:
    """The search calls terminal_test exactly as often as the reference.

    ``evidence`` (positions, depths), asked only when the test fails, widens
    what the diagnosis sees where the test itself asks little."""
    decider = decider.on(probe.game)
    observations = _counts(decider, probe, positions, depths)

    def diagnose(found: list[Observation]) -> list[str]:
        if evidence and checks.wrong(found):
            found = found + _counts(decider, probe, *evidence)
        return mistakes.diagnose(_models(decider, probe, found), _reproducer(decider),
                                 found) or _no_search(found)

    checks.verdict(f"The number of terminal tests in {decider.function}", observations,
                   diagnose, shown=lambda answer: f"{answer[1]} calls to terminal_test",
                   draw=decider.game.draw,
                   detail=lambda first: on_a_tree(decider, probe, "calls", _depth(first)),
                   facts=_facts(decider, probe))


def _facts(decider: Decider, probe: SearchProbe) -> Callable[[list[Observation]], list[Fact]]:
    """What the student's decision was seen to do on the smallest wrong cases."""
    return lambda found: smallest_facts(found, lambda case, origin: _traced(
        decider, probe, case, origin))


def _traced(decider: Decider, probe: SearchProbe, case: Observation, origin: str
            ) -> Fact | None:
    """What the student's decision did on ``case``, against the reference's walk;
    where no depth is given (the decision exercise: its search is the provided
    helpers', whose terminal tests are not the student's module's to count),
    the move it chose against the values of the moves. Nothing where the
    answer is no move at all (that is the story)."""
    depth = _depth(case)
    if isinstance(case.answer, NotAMove):
        return None
    if depth is None:
        own = probe.student.student.lesson.names_in(probe.module, functions=True)
        return _chosen_fact(decider, case, origin, "min_value" in own)
    return traced_fact(probe, decider.function, case.state, () if depth is None else (depth,),
                       lambda search: search.decision(case.state, depth),
                       decider.search(None, decider.game), origin=origin)


def _chosen_fact(decider: Decider, case: Observation, origin: str, own_min_value: bool
                 ) -> Fact | None:
    """The move the student's decision chose on ``case``, beside what each
    move is worth, as min_value (the provided one) scores the position after
    it: an observation, with no hint (the same choice comes of many codes).
    ``own_min_value``: the student's file defines a min_value of its own,
    which may stand in its decision for the provided one."""
    if checks.raised(case) or not checks.is_move(case.answer[0]):
        return None
    move = case.answer[0]
    scores = values(decider.game).scores(case.state, None)
    worth = "; ".join(f"{m} {_signed(v)}" for m, v in scores.items())
    best = max(scores.values())
    at = "On the position above" if origin == ABOVE else f"On {origin}"
    scored = "the provided min_value, scoring the position after each"
    own = " Your file defines a min_value of its own: where your decision calls that one " \
        "rather than the provided one, its values are the ones to check." if own_min_value else ""
    if move not in scores:
        return Fact(None, f"{at}, your {decider.function} returns {move}, which is not one of "
                          f"its legal moves: {scored} of them, gives {worth}.{own}")
    return Fact(None, f"{at}, your {decider.function} returns {move}, worth {_signed(scores[move])}"
                      f" to the player to move; {scored} move, gives {worth}: a correct decision "
                      f"returns one worth {_signed(best)}.{own}")


def _signed(value: Any) -> str:
    return f"{value:+g}" if value else "0"


# -- the smallest tree -------------------------------------------------------------

def _tree_reference(decider: Decider, root: tree.TreeState, depth: int | None) -> Decision:
    calls = decider.search(None, tree).decision(root, depth)[0]
    return calls, Search(None, tree).best_moves(root, depth)


def on_a_tree(decider: Decider, probe: SearchProbe, what: str, depth: int | None) -> list[str]:
    """Lines showing the smallest drawn tree on which the student's search
    differs from the reference in ``what`` ("calls" or "move"), if one is
    found; searched, and shown, once a session for each function and ``what``."""
    return trees.once((decider.function, what),
                      lambda: _tree_lines(decider, probe, what, depth is not None))


def _tree_lines(decider: Decider, probe: SearchProbe, what: str, limited: bool) -> list[str]:
    from hypothesis import strategies as st  # only once a test failed: a costly import

    depths = st.tuples(st.integers(1, trees.MAX_DEPTH)) if limited else st.just(())

    def differs(drawn: tree.Tree, extra: tuple[Any, ...], answer: trees.Answer) -> bool:
        calls, best = _tree_reference(decider, tree.from_data(drawn), *extra or (None,))
        if what == "calls":
            return bool(answer[1] != calls)
        return not checks.is_move(answer[0]) or answer[0] not in best

    found = trees.smallest(probe, decider.function, st.tuples(trees.trees(), depths), differs)
    if found is None:
        return []
    depth = found.extra[0] if found.extra else None
    calls, best = _tree_reference(decider, tree.from_data(found.tree), depth)
    said = ", ".join(["root", *map(str, found.extra)])
    return trees.shown(found, f"{decider.function}({said})", depth, calls, best)
