"""The checks of the helpers exercise (terminal_test, min_value, max_value), on
any game of the lesson's kind (``grader.games.SearchGame``).

They run on the grader's trusted states, every position the game's suites ask
about. While min_value and max_value are tested, the trusted terminal_test
stands in for the student's, and the grader's own max_value for the
student's while min_value is tested (and the reverse): a mistake in one
function costs that function's points only.
"""

from collections.abc import Callable, Sequence
from typing import Any

from grader.games import Path, State
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import Fact
from grader.harness.checking.probes import Answer, SearchProbe
from grader.harness.lesson.search import Search, Stuck, values
from grader.harness.lesson.search_facts import smallest_facts, traced_fact

OTHER = {"min_value": "max_value", "max_value": "min_value"}
# Answers that `if terminal_test(state):` reads as meant, though they are no bool.
LOOSE: dict[Any, bool] = {None: False, 0: False, 1: True}
Positions = Sequence[tuple[State, Path]]
FEW = 24  # positions below which a diagnosis looks at the game's others as well


def loose(answer: object) -> bool | None:
    """The truth an answer that is not a bool stands for, or None."""
    return LOOSE.get(answer) if type(answer) in (int, type(None)) else None


def loose_note(answers: list[object]) -> str | None:
    """A note naming the answers that were accepted though they are not bools."""
    kinds = sorted({repr(a) for a in answers if type(a) is not bool and loose(a) is not None})
    if not kinds:
        return None
    return (f"terminal_test returned {' and '.join(kinds)} where True or False was meant; "
            "accepted, as `if terminal_test(state):` reads them alike, but return a bool.")


def check_terminal_test(probe: SearchProbe, positions: Positions, notes: list[str]) -> None:
    """The student's terminal_test, their own helpers left in place, on every
    position; an answer that ``if`` reads as meant passes, with a note."""
    game = probe.game

    def agrees(state: State, answer: object) -> bool:
        truth = answer if type(answer) is bool else loose(answer)
        return truth is game.terminal(state)

    observations = checks.collect(positions, probe.plain("terminal_test", positions), agrees,
                                  lambda s: repr(game.terminal(s)))
    note = loose_note([o.answer for o in observations])
    if note and all(o.ok for o in observations):
        notes.append(note)

    def inverted(observations: list[Observation]) -> list[str]:
        # every answer, as `if` reads it, says the opposite
        return ["inverted_terminal_test"] if all(
            not checks.raised(o) and bool(o.answer) is not game.terminal(o.state)
            and (type(o.answer) is bool or loose(o.answer) is not None)
            for o in observations) else []

    checks.verdict("terminal_test", observations, inverted, draw=game.draw)


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _ask_alone(probe: SearchProbe, name: str, positions: Positions,
               called: dict[Path, bool]) -> Answer:
    """``ask`` for ``checks.collect`` (the value of ``name``, the grader's own other
    function standing in), noting in ``called`` where ``name`` called that
    function: path -> bool."""
    answers = probe.alone(name, positions, other=OTHER[name])

    def ask(state: State, path: Path) -> Any:
        value, called[path] = answers(state, path)
        return value

    return ask


def check_value(probe: SearchProbe, name: str, positions: Positions) -> None:
    """The student's ``name`` ("min_value" or "max_value") is the reference's on
    every position; a wrong one is diagnosed by the models of known mistakes."""
    game = probe.game
    expected: Callable[[State], Any] = getattr(values(game), name)
    called: dict[Path, bool] = {}

    def collect(asked: Positions) -> list[Observation]:
        return checks.collect(asked, _ask_alone(probe, name, asked, called),
                              lambda s, answer: _is_number(answer) and answer == expected(s),
                              lambda s: repr(expected(s)))

    observations = collect(positions)

    def wider(found: list[Observation]) -> list[Observation]:
        """A test of few positions is diagnosed on the game's others too: a
        model that fits one answer may not fit the function's."""
        if len(found) >= FEW:
            return found
        asked = {path for _, path in positions}
        return found + collect([(s, p) for s, p in game.positions() if p not in asked])

    def fact(case: Observation, origin: str) -> Fact | None:
        return traced_fact(probe, name, case.state, (),
                           lambda search: getattr(search, name)(case.state), Search(game=game),
                           trusted=[OTHER[name]], origin=origin)

    def diagnose(found: list[Observation]) -> list[str]:
        models = mistakes.models_for(name)
        named = mistakes.diagnose(models, _reproducer(game, name, called), wider(found))
        return _on_larger_board(probe, name, named, models)

    checks.verdict(name, observations, diagnose, draw=game.draw,
                   facts=lambda found: smallest_facts(found, fact))


def _reproducer(game: Any, name: str, called: dict[Path, bool]
                ) -> Callable[[Any, Observation], bool]:
    """Whether a model of ``name`` gives an observed answer, calling the
    other function where the student's did (``called``: path -> bool)."""
    def reproduces(flaws: Any, observation: Observation) -> bool:
        model = Search(flaws, game)
        predicted = model.outcome(name, observation.state)
        if checks.raised(observation):  # the model, too, must be stuck on a None
            return predicted is Stuck and observation.answer.raised["type"] == "TypeError"
        answer = observation.answer
        same = predicted is None and answer is None or (
            _is_number(predicted) and _is_number(answer) and predicted == answer)
        return same and bool(model.entered) == called[observation.path]

    return reproduces


def _on_larger_board(probe: SearchProbe, name: str, named: list[str],
                     models: list[tuple[str, Any]]) -> list[str]:
    """The names of ``named`` whose models give the student's answers on the
    game's larger board too, where it has one. The lesson's board can't tell
    some codes from a model: a max_value that returns its last child's value
    takes the smallest on every position there, yet "yours keeps the smallest"
    is not what it does."""
    larger = getattr(probe.game, "larger", None)
    if not named or larger is None:
        return named
    asked = larger("decision")
    called: dict[Path, bool] = {}
    seen = checks.collect(asked, _ask_alone(probe, name, asked, called),
                          lambda s, answer: True, lambda s: "")
    reproduces = _reproducer(probe.game, name, called)
    return [mistake for mistake in named
            if any(all(reproduces(flaws, o) for o in seen)
                   for m, flaws in models if m == mistake)]
