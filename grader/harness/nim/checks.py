"""Checks of ``minimax(game, player, depth, score)`` on the grader's games.

The student's search is handed the grader's own counting games and score
function (see the worker's Nim kit); each case is a (game, player, depth),
answered against the reference, with the calls of ``score`` and ``move``
counted from outside.
"""

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from grader.contracts.protocol import describe
from grader.games import nim
from grader.harness.checking import boards, checks, mistakes
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import CASES, Fact, first_hinted
from grader.harness.checking.probes import MOST_TRACED, Probe, Ref, Steps
from grader.harness.nim.facts import negamax_fact
from grader.harness.nim.search import NO_FLAWS, Calls, Negamax, NegamaxFlaws
from grader.harness.runtime.faults import CallTimeout, TooManyCalls
from grader.harness.runtime.steps import call_step

MODULE = "negamax"
# A search stopped once it makes this many times the reference's calls (and
# a thousand more): it won't answer right, and would run to its time limit.
SLACK = 50
PLAYERS = ("A", "B")
Case = tuple[Any, str, int]  # (game, player, depth)

MODELS = [
    ("rating_not_negated", NegamaxFlaws(not_negated=True)),
    ("rating_not_negated", NegamaxFlaws(not_negated=True, not_negated_pass=True)),
    ("rating_overwritten", NegamaxFlaws(overwritten=True)),
    # the same slip written apart from the comparison (rated[-1][1]): the move is the best one
    ("rating_overwritten", NegamaxFlaws(last_rating=True)),
    ("depth_not_decremented", NegamaxFlaws(no_decrement=True)),
    ("same_player_searched", NegamaxFlaws(same_player=True)),
    ("score_for_opponent", NegamaxFlaws(score_opponent=True)),
    ("score_for_opponent", NegamaxFlaws(score_opponent_negated=True)),
    ("last_tie_kept", NegamaxFlaws(keeps_last=True)),
    ("win_loss_swapped", NegamaxFlaws(win_loss_swapped=True)),
    ("no_hand_over", NegamaxFlaws(no_hand_over=True)),
    ("hard_coded_nim", NegamaxFlaws(hard_coded=True)),
    ("search_cut_short", NegamaxFlaws(stop_at_win=True)),
]
SEARCHES = {flaws: Negamax(flaws) for _, flaws in [("", NO_FLAWS), *MODELS]}


def game_text(game: Any) -> str:
    if isinstance(game, nim.OwnPiles):
        return f"OwnPiles({list(game.piles)}, last={game.last!r})"
    return f"{type(game).__name__}({game.coins}, last={game.last!r})"


def call_text(case: Case) -> str:
    game, player, depth = case
    return f"minimax({game_text(game)}, {player!r}, {depth}, score)"


def _draw(case: Case) -> str:
    game, player, depth = case
    what = {"Nim": "Nim (whoever takes the last coin wins)",
            "MisereNim": "misère Nim (whoever takes the last coin loses)",
            "OwnPiles": "each player takes from their own pile; a stuck player passes"}
    return f"{what[type(game).__name__]}: {game_text(game)}, {player} to move, depth {depth}"


def _piles(case: Case, drawing: str) -> boards.Board:
    """The case's pile (or each player's) as data, for pages to draw."""
    game, player, depth = case
    coins = (dict(zip((f"{name}'s pile" for name in game.players()), game.piles, strict=True))
             if isinstance(game, nim.OwnPiles) else {"the pile": game.coins})
    return boards.piles(coins, f"{player} to move, depth {depth}", drawing)


verdict = partial(checks.verdict, draw=_draw, place=lambda path: path[0], cases="calls",
                  board=_piles)


def cases(games: Sequence[Any], depths: Sequence[int]) -> list[tuple[Case, tuple[str]]]:
    found = [(game, player, depth) for game in games for depth in depths for player in PLAYERS]
    return [(case, (f"the call {call_text(case)}",)) for case in found]


class NegamaxProbe(Probe):
    def __init__(self, student: Any) -> None:
        super().__init__(student, MODULE)

    def searches(self, positions: Sequence[tuple[Case, tuple[str]]]
                 ) -> Callable[[Case, Any], Any]:
        """(answer, the calls of score and move) of each case."""
        def script(steps: Steps, case: Case, path: Any) -> Ref:
            game, player, depth = case
            return steps.add(call_step(("module", MODULE), "minimax",
                                       {"trusted": nim.describe(game)}, player, depth,
                                       {"trusted": ["score"]}, most=_most(case)))

        def pick(ref: Ref) -> tuple[Any, Calls]:
            assert ref.reply is not None  # it ran
            return ref.value, Calls.of(ref.reply["calls"])

        asked = self.ask(positions, script, pick)
        return self._answer(asked)

    def traced(self, case: Case) -> list[tuple[str, str]]:
        """``case`` asked once more, its counted calls kept in order (as far as it got)."""
        game, player, depth = case
        steps = self.steps()
        ref = steps.add(call_step(("module", MODULE), "minimax", {"trusted": nim.describe(game)},
                                  player, depth, {"trusted": ["score"]},
                                  most=min(_most(case), MOST_TRACED), trace=True))
        return steps.trace(ref)

    @staticmethod
    def _answer(asked: Callable[[Case, Any], Any]) -> Callable[[Case, Any], Any]:
        """``asked``, where a search stopped for its time or its calls answers
        ``Late`` for its case and for the cases its stop left unasked."""
        stopped: dict[int, Case] = {}  # a fault -> the case it stopped (the rest: not run)

        def answer(case: Case, path: Any) -> Any:
            try:
                return asked(case, path)
            except (CallTimeout, TooManyCalls) as late:  # an exploding search: the cases
                first = stopped.setdefault(id(late), case)  # answered before it still tell
                return Late(str(late), isinstance(late, TooManyCalls), first), Calls()

        return answer


def _most(case: Case) -> int:
    calls = _found(SEARCHES[NO_FLAWS], case)[2]
    return SLACK * (calls.scores + calls.moves) + 1000


class Late:
    """No answer: stopped at the time limit, or for too many calls (``counted``),
    in this case or in the case ``stopped`` asked before it (then this one
    never ran)."""

    def __init__(self, why: str, counted: bool, stopped: Case) -> None:
        self.why = why
        self.counted = counted
        self.stopped = stopped

    def __repr__(self) -> str:
        return f"no answer: {self.why}"


def _answer(found: Any) -> Any:
    """What the student returned, as a (move, rating) tuple when it is one."""
    if type(found) in (tuple, list) and len(found) == 2:
        return tuple(found)
    return found


def _a_rating(found: Any) -> bool:
    """Whether ``found`` is a (move, rating) of plain ints, the move maybe None."""
    answer = _answer(found)
    return type(answer) is tuple and len(answer) == 2 and \
        all(type(v) in (int, type(None)) for v in answer)


def _reference(case: Case) -> tuple[Any, int]:
    return _found(SEARCHES[NO_FLAWS], case)[:2]


def _found(search: Negamax, case: Case) -> tuple[Any, int, Calls]:
    """The reference's answer, which always has one."""
    found = search.search(*case)
    assert found is not None  # only a model of hard-coded Nim has none
    return found


def observe(probe: NegamaxProbe, positions: list[tuple[Case, tuple[str]]]
            ) -> checks.ObservedRun:
    def facts(found: list[Observation]) -> list[Fact]:
        """The fact of the first of the smallest wrong cases that shows one with a hint."""
        return first_hinted([o.state for o in found if not o.ok][:CASES],
                            lambda case: negamax_fact(case, probe.traced(case)))

    return checks.ObservedRun(checks.collect(positions, probe.searches(positions),
                                             lambda case, found: _a_rating(found[0])
                                             and _answer(found[0]) == _reference(case),
                                             lambda case: f"(move, rating) = {_reference(case)!r}"),
                              facts)


def _diagnose(reproduces: Callable[[NegamaxFlaws, Observation], float]
              ) -> Callable[[list[Observation]], checks.Diagnosis]:
    def diagnose(found: list[Observation]) -> checks.Diagnosis:
        if found and all(not checks.raised(o) and o.answer[0] is None for o in found):
            return ["stub"]
        answered = [o for o in found if checks.raised(o) or not isinstance(o.answer[0], Late)]
        return mistakes.diagnose(MODELS, reproduces, answered) if answered else []

    return diagnose


def _reproduces(flaws: NegamaxFlaws, observation: Observation) -> float:
    """Whether the model of ``flaws`` gives the student's move and rating, or
    was stopped as the student's search was: for making too many calls, or
    for reading a pile the game does not have."""
    model = SEARCHES[flaws].search(*observation.state)
    if checks.raised(observation):
        return float(model is None and _reads_pile(observation.answer))
    found = observation.answer[0]
    if isinstance(found, Late):
        return float(found.counted and model is not None and
                     model[2].scores + model[2].moves > _most(observation.state))
    return float(model is not None and _answer(found) == model[:2])


def _reads_pile(fault: Any) -> bool:
    """Whether the student's code failed reading Nim's pile (``coins``) on a
    game that has none."""
    raised = getattr(fault, "raised", None)
    return isinstance(raised, dict) and raised.get("type") == "AttributeError" and \
        "attribute 'coins'" in str(raised.get("message"))


def _stopper(observation: Observation, observations: list[Observation]) -> Observation:
    """The observation that stands for ``observation``'s answer: itself, or the
    case whose stop left it unasked."""
    found = observation.answer if checks.raised(observation) else observation.answer[0]
    if isinstance(found, Late) and found.stopped is not observation.state:
        return next(o for o in observations if o.state is found.stopped)
    return observation


def _charged(runs: Sequence[Observation]) -> list[NegamaxFlaws] | None:
    """The models of a mistake already charged on the Nim runs: those that
    give every answer there, when some are wrong; None when no known mistake
    gives them (a mistake the grader does not know is charged there too).
    The starter's stub is charged everywhere: it is no search at all."""
    answered = [o for o in runs if not checks.raised(o) and not isinstance(o.answer[0], Late)]
    if all(o.ok for o in answered) or all(o.answer[0] is None for o in answered):
        return []
    return [flaws for _, flaws in MODELS if all(_reproduces(flaws, o) for o in answered)] \
        or None


def check_answers(what: str, observations: list[Observation],
                  evidence: Sequence[Observation] = ()) -> None:
    """Fail on a wrong move or rating, naming the mistake whose model gives
    them here and on the ``evidence``. For another game, ``evidence`` holds
    the Nim runs: an answer that a mistake already charged there explains is
    not charged again (that test is about using only the protocol), and on
    misère Nim alone swapped winning values and hard-coded Nim look alike.
    When no known mistake gives the wrong Nim answers, the answers here are
    charged only where the code failed (reading a pile, say) or answered
    what is no (move, rating): a mistake the grader can't name is charged
    once, on Nim."""
    charged = _charged(evidence)
    for o in observations:
        stopper = _stopper(o, observations)
        if charged is None:
            o.ok = o.ok or not checks.raised(stopper) and _a_rating(stopper.answer[0])
        else:
            o.ok = o.ok or any(_reproduces(flaws, stopper) for flaws in charged)
    diagnose = _diagnose(_reproduces)
    verdict(what, observations, lambda found: diagnose([*found, *evidence]),
            shown=lambda found: describe(found[0]), facts=checks.facts_of(observations))


def check_calls(observations: list[Observation]) -> None:
    """The calls of score and move: exactly the reference's (as multisets)."""
    counted = []
    for o in observations:
        expected = _found(SEARCHES[NO_FLAWS], o.state)[2]
        ok = not checks.raised(o) and not isinstance(o.answer[0], Late) \
            and o.answer[1] == expected
        counted.append(Observation(o.state, o.path, o.answer, ok))
        if not ok:
            counted[-1].expected = f"{_calls(expected)}, each on the games the search reaches"

    def reproduces(flaws: NegamaxFlaws, observation: Observation) -> float:
        if checks.raised(observation) or isinstance(observation.answer[0], Late):
            return 0.0
        model = SEARCHES[flaws].search(*observation.state)
        return float(model is not None and observation.answer[1] == model[2])

    verdict("The number of calls of score and move", counted, _diagnose(reproduces),
            shown=lambda found: repr(found[0]) if isinstance(found[0], Late) else _calls(found[1]),
            facts=checks.facts_of(observations))


def _calls(calls: Calls) -> str:
    def times(count: int) -> str:
        return f"{count:,} time" + ("" if count == 1 else "s")

    return f"score called {times(calls.scores)}, move {times(calls.moves)}"
