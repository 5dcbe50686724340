"""Checks of the lab's ``Game`` class, on every position of the game.

``is_end`` is asked on all 5,478 legal positions. ``max()``/``min()`` (or
the alpha-beta pair, called with the lab's window (-2, 2)) are asked on every
unfinished position where it is their player's turn, with the grader's own
copy of the other function standing in (see the worker's stand-ins), so a
mistake in one costs only its own test; ``is_end`` is the grader's during a
search, and counts every call with the board it saw.
"""

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any

from grader.contracts.protocol import describe
from grader.games import Path, tictactoe
from grader.games.tictactoe import EMPTY
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Observation, ObservedRun
from grader.harness.checking.facts import CASES, Fact, first_hinted
from grader.harness.checking.fingerprints import fingerprint
from grader.harness.checking.probes import MOST_TRACED, Probe, Ref, Steps
from grader.harness.checking.traces import Node
from grader.harness.runtime.faults import StudentFault
from grader.harness.runtime.steps import call_step
from grader.harness.tictactoe import search
from grader.harness.tictactoe.facts import lab_fact
from grader.harness.tictactoe.search import LabFlaws, LabSearch

MODULE = "tictactoe"
PARTNER = {"max": "min", "min": "max",
           "max_alpha_beta": "min_alpha_beta", "min_alpha_beta": "max_alpha_beta"}
# The known mistakes of the search, in the function checked (the grader's
# stands in for the other): id, model.
SEARCH_MODELS = [
    ("marks_swapped", LabFlaws(marks_swapped=True)),
    ("values_wrong_side", LabFlaws(values_wrong_side=True)),
    ("mark_not_put_back", LabFlaws(mark_not_put_back=True)),
    ("best_move_first_child", LabFlaws(first_child_move=True)),
    ("first_child_value", LabFlaws(first_child_value=True)),
]
CALL_MODELS = [
    ("search_cut_short", LabFlaws(stop_at_win=True)),
    ("is_end_called_twice", LabFlaws(is_end_twice=True)),
    ("is_end_called_twice", LabFlaws(is_end_each_test=True)),
    ("mark_not_put_back", LabFlaws(mark_not_put_back=True)),
    ("marks_swapped", LabFlaws(marks_swapped=True)),
]
PRUNING_MODELS = [
    ("prune_on_strict", LabFlaws(strict_prune=True)),
    ("window_not_passed", LabFlaws(window_reset=True)),
    ("no_pruning", LabFlaws(no_pruning=True)),
    ("no_pruning", LabFlaws(no_pruning=True, window_reset=True)),
    ("wrong_bound_updated", LabFlaws(bounds_swapped=True)),
    ("window_swapped", LabFlaws(window_swapped=True)),
    ("prune_before_undo", LabFlaws(prune_before_undo=True)),
]
# The flaws whose hint states how the search walks ("compare each child with
# the best so far": every child is searched, the first kept): named only where
# the student's is_end calls are the model's too, not its answers alone.
WALK_PREMISES = ("first_child_value",)
# Models are asked on positions this far into the game at least (a search from
# the empty board has 549,946 nodes: too many to replay for each model).
DIAGNOSED_FROM = 3


def where(path: Path) -> str:
    if not path:
        return "the empty board"
    marks = ("X", "O")
    return "the moves " + ", ".join(f"{marks[i % 2]} at {move}" for i, move in enumerate(path))


verdict = partial(checks.verdict, draw=tictactoe.draw, place=where)


@dataclass
class Searched:
    """What one call of the student's search gave."""

    answer: Any  # as returned: (value, row, col) when right
    board: Any  # current_state afterwards
    turn: Any  # player_turn afterwards
    calls: Counter[str]  # the boards is_end was called on

    def __str__(self) -> str:
        return describe(self.answer)


class LabProbe(Probe):
    """Builds the student's ``Game`` at a position and calls its methods."""

    def __init__(self, student: Any) -> None:
        super().__init__(student, MODULE)

    def _on_board(self, steps: Steps, board: str, name: str, *args: object, **step: Any
                  ) -> Ref:
        """``name(*args)`` on a fresh ``Game()`` whose current_state and
        player_turn are set to ``board``'s first: one step, made and called in
        the worker (a reply a position, where a chain of the two calls has two)."""
        return steps.add(call_step(("module", MODULE), name, *args, make="Game", setup={
            "current_state": {"trusted": board}, "player_turn": tictactoe.mark(board)}, **step))

    def ends(self, positions: Sequence[tuple[str, Path]]) -> Callable[[str, Path], Any]:
        """The student's own ``is_end()`` on each position."""
        def script(steps: Steps, board: str, path: Path) -> Ref:
            return self._on_board(steps, board, "is_end")

        return self.ask(positions, script)

    def searches(self, name: str, positions: Sequence[tuple[str, Path]],
                 window: tuple[int, ...] = ()) -> Callable[[str, Path], Any]:
        """``name(*window)`` on each position, the grader's partner standing in."""
        def script(steps: Steps, board: str, path: Path) -> Ref:
            return self._on_board(steps, board, name, *window, count_in=MODULE,
                                  trusted=[PARTNER[name]], read=["current_state", "player_turn"],
                                  root=board)

        def pick(called: Ref) -> Searched:
            assert called.reply is not None  # it ran
            board, turn = called.reply["read"]
            return Searched(called.value, board, turn, called.reply["calls"])

        return self.ask(positions, script, pick)

    def traced(self, name: str, board: str, called: tuple[int, ...] | None = None
               ) -> list[tuple[str, str]]:
        """``name`` on ``board`` once more (with the window ``called``, by default
        the test's), its tallies kept in order (as far as it got)."""
        steps = self.steps()
        args = window(name) if called is None else called
        ref = self._on_board(steps, board, name, *args, count_in=MODULE,
                             trusted=[PARTNER[name]], root=board, trace=True, most=MOST_TRACED)
        return steps.trace(ref)


# -- is_end ---------------------------------------------------------------------

def check_ends(probe: LabProbe) -> None:
    positions = tictactoe.positions()
    observations = checks.collect(positions, probe.ends(positions),
                                  lambda board, answer: type(answer) in (str, type(None))
                                  and answer == tictactoe.end(board),
                                  lambda board: repr(tictactoe.end(board)))

    def reproduces(model: Any, observation: Observation) -> float:
        return float(not checks.raised(observation) and
                     observation.answer == model.end(observation.state))

    def diagnose(found: list[Observation]) -> checks.Diagnosis:
        named = mistakes.diagnose([(m.mistake, m) for m in tictactoe.flawed()], reproduces,
                                  found)
        says = [m.says for m in tictactoe.flawed() if m.mistake in named]
        return (named, f"It looks as if {says[0]}.") if len(says) == 1 else named

    verdict("is_end()", observations, diagnose, shown=repr)


# -- the search -----------------------------------------------------------------

def turn(name: str) -> str:
    """The player whose move ``name`` finds."""
    return "O" if name.startswith("max") else "X"


@cache
def unfinished(name: str) -> list[tuple[str, Path]]:
    return [(board, path) for board, path in tictactoe.positions()
            if not tictactoe.terminal(board) and tictactoe.mark(board) == turn(name)]


def _as_board(rows: Any) -> str | None:
    if type(rows) is list and len(rows) == 3 and all(
            type(row) is list and len(row) == 3 and all(type(c) is str for c in row)
            for row in rows):
        return "".join("".join(row) for row in rows)
    return None


def _right(board: str, found: Searched) -> bool:
    answer = found.answer
    return (type(answer) is tuple and len(answer) == 3
            and type(answer[0]) in (int, float) and answer[0] == search.value(board)
            and checks.is_move(answer[1:]) and answer[1:] in search.best_moves(board)
            and _as_board(found.board) == board and found.turn == tictactoe.mark(board))


def _expected(board: str) -> str:
    best = search.best_moves(board)
    moves = "any move" if len(best) == len(tictactoe.moves(board)) else \
        "the move " + " or ".join(f"({r}, {c})" for r, c in sorted(best))
    return (f"(value, row, col): value {search.value(board)} with {moves}; afterwards "
            f"current_state and player_turn ({tictactoe.mark(board)!r}) as they were")


def _detail(observation: Observation) -> list[str]:
    found = observation.answer
    if checks.raised(observation) or not isinstance(found, Searched):
        return []
    lines = []
    after = _as_board(found.board)
    if after != observation.state:
        lines.append(f"afterwards current_state was {describe(found.board)}")
    if found.turn != tictactoe.mark(observation.state):
        lines.append(f"afterwards player_turn was {found.turn!r}")
    return lines


@cache
def _lab(flaws: LabFlaws, alpha_beta: bool) -> LabSearch:
    """One search a model for the grading: what it finds below a board is kept
    for the next position it is run on (a diagnosis runs it on a sample, then
    on one ten times wider, and the count test on the positions of the
    search tests)."""
    return LabSearch(flaws, alpha_beta)


def _model(flaws: LabFlaws, alpha_beta: bool, name: str, board: str) -> search.Outcome:
    return _lab(flaws, alpha_beta).run(board, name.startswith("max"))


def window(name: str) -> tuple[int, ...]:
    return search.FULL_WINDOW if name.endswith("alpha_beta") else ()


class Asked:
    """The student's ``name`` asked about a board of the reference
    (``traces.Student``), with the node's window, the grader's other function
    standing in as in the test."""

    def __init__(self, probe: LabProbe, name: str) -> None:
        self.probe = probe
        self.name = name

    def value(self, node: Node) -> Any:
        try:
            found = self.probe.searches(self.name, [(node.state, ())], _window(node))(
                node.state, ())
        except StudentFault as fault:
            return fault
        answer = found.answer
        return answer[0] if type(answer) is tuple and len(answer) == 3 else answer

    def again(self, node: Node) -> list[str]:
        trace = self.probe.traced(self.name, node.state, _window(node))
        return [label for kind, label in trace if kind == "t"]


def _window(node: Node) -> tuple[int, ...]:
    return tuple(map(int, node.window or ()))


def _facts(probe: LabProbe, name: str) -> Callable[[list[Observation]], list[Fact]]:
    """What ``name`` was seen to do on the wrong cases with the fewest empty
    cells (the smallest searches): the first that shows a fact with a hint."""
    def facts(found: list[Observation]) -> list[Fact]:
        wrong = [o for o in found if not o.ok]
        smallest = sorted(wrong, key=lambda o: o.state.count(EMPTY))[:CASES]

        def seen(case: Observation) -> Fact | None:
            origin = "the board above" if case is wrong[0] else \
                f"the board after {where(case.path)}"
            return lab_fact(case.state, name, probe.traced(name, case.state), origin,
                            Asked(probe, name))

        return first_hinted(smallest, seen)

    return facts


def observe_search(probe: LabProbe, name: str) -> ObservedRun:
    """``name`` on every unfinished position of its player, judged for
    values, moves and the board put back (its is_end calls are kept)."""
    positions = unfinished(name)
    return ObservedRun(checks.collect(positions, probe.searches(name, positions, window(name)),
                                      _right, _expected), _facts(probe, name))


def check_search(name: str, observations: list[Observation],
                 models: list[tuple[str, LabFlaws]], notes: list[str]) -> None:
    """Fail on a wrong value, move or board left changed, naming the mistake."""
    alpha_beta = name.endswith("alpha_beta")

    def reproduces(flaws: LabFlaws, observation: Observation) -> float:
        if checks.raised(observation):
            return 0.0
        outcome = _model(flaws, alpha_beta, name, observation.state)
        found = observation.answer
        walked = not any(getattr(flaws, premise) for premise in WALK_PREMISES) or \
            outcome.calls == found.calls
        return float(found.answer == outcome.answer and walked
                     and _as_board(found.board) == outcome.after)

    _note_ties(name, observations, notes)
    call = f"{name}({', '.join(map(str, window(name)))})"
    verdict(call, observations, _diagnosis(name, models, reproduces), detail=_detail, shown=str,
            facts=checks.facts_of(observations))


def _note_ties(name: str, observations: list[Observation], notes: list[str]) -> None:
    """Say so when a right answer is not the move the lab's code picks."""
    for o in observations:
        if o.ok and (o.answer.answer[1], o.answer.answer[2]) != _lab_move(o.state):
            notes.append(
                f"Among equally good moves, {name}() does not always pick the one the lab's "
                f"code picks (the first best, comparing with > in max and < in min): both are "
                f"right. For example, from {where(o.path)}: yours {o.answer.answer[1:]}, the "
                f"lab's {_lab_move(o.state)}.")
            return


def _lab_move(board: str) -> tuple[int, int]:
    """The lab's pick: the first best move in the order it tries the cells (its
    > in max and < in min keep the first; its pruning never cuts at the root's
    full window). Read off the memoised values, not searched again: a search per
    right answer was most of a grading's time."""
    best = search.best_moves(board)
    return next(move for move in tictactoe.moves(board) if move in best)


def _diagnosis(name: str, models: list[tuple[str, LabFlaws]],
               reproduces: Callable[[LabFlaws, Observation], float]
               ) -> Callable[[list[Observation]], checks.Diagnosis]:
    """The mistakes, in ``name`` alone, whose models give the answers, judged
    on positions small enough to replay."""
    side = "max" if name.startswith("max") else "min"
    own = [(mistake, replace(flaws, only=side)) for mistake, flaws in models]

    def diagnose(found: list[Observation]) -> checks.Diagnosis:
        if found and all(not checks.raised(o) and o.answer.answer is None for o in found):
            return ["stub"]  # the starter's ``pass``
        small = [o for o in found if 9 - o.state.count(".") >= DIAGNOSED_FROM]
        if not any(not o.ok for o in small):
            return []
        return mistakes.diagnose(own, reproduces, small)

    return diagnose


class Runs:
    """Each function's run over its positions, made once per session: a
    search test and the count test judge the same run (its cost is the
    student's search, paid once)."""

    def __init__(self) -> None:
        self._made: dict[str, ObservedRun] = {}

    def __call__(self, probe: LabProbe, name: str) -> ObservedRun:
        if name not in self._made:
            self._made[name] = observe_search(probe, name)
        return self._made[name]


# -- is_end calls -----------------------------------------------------------------

def _tree(name: str, board: str) -> tuple[int, int]:
    if name.endswith("alpha_beta"):
        return search.pruned_tree(board, name.startswith("max"))[1:]
    return search.full_tree(board)


def check_calls(name: str, observations: list[Observation], models: list[tuple[str, LabFlaws]]
                ) -> None:
    """The boards is_end was called on during each search: exactly the
    reference's, as a multiset (compared by fingerprint, shown as a count)."""
    alpha_beta = name.endswith("alpha_beta")
    counted = [Observation(o.state, o.path, o.answer if checks.raised(o) else
                           Searched(o.answer.answer, None, None, o.answer.calls), False)
               for o in observations]
    for o in counted:
        o.ok = not checks.raised(o) and \
            (o.answer.calls.total(), fingerprint(o.answer.calls)) == _tree(name, o.state)
        if not o.ok:
            size = _tree(name, o.state)[0]
            o.expected = f"{size:,} calls, one on each board the search visits"

    def reproduces(flaws: LabFlaws, observation: Observation) -> float:
        if checks.raised(observation):
            return 0.0
        outcome = _model(flaws, alpha_beta, name, observation.state)
        return float(outcome.calls == observation.answer.calls)

    verdict(f"The number of is_end calls of {name}()", counted,
            _diagnosis(name, models, reproduces),
            shown=lambda found: f"{found.calls.total():,} calls", detail=_uncounted,
            facts=checks.facts_of(observations))


def _uncounted(observation: Observation) -> list[str]:
    if checks.raised(observation) or observation.answer.calls:
        return []
    return ["None of your search's calls reached is_end through the class (self.is_end()): "
            "an is_end set on the object itself, or a check written out inline, can't be "
            "counted."]
