"""Checks of a student's own ``GameState``, for the gamestate suite.

Two kinds. The rules checks replay the lesson's move sequences on the
student's class and compare its legal moves with the trusted game's; a rules
mistake is named only when a model of it (``isolation.flawed()``) gives
the student's answers. The checks of ``forecast_move`` and of the type of
``get_legal_moves``' answer judge the class on its own terms: they walk the
positions the student's own rules reach, so they pass whenever that behaviour
is right, whatever the rules; their mistakes are named from what was seen.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from grader.contracts.protocol import Foreign, describe
from grader.games import Path, State, isolation
from grader.games.isolation.flawed_rules import GameModel
from grader.games.isolation.rules import GameState
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Diagnosis, Observation
from grader.harness.checking.facts import Fact
from grader.harness.checking.probes import Answer, GameProbe, GameSteps, Ref
from grader.harness.lesson.game_facts import move_facts
from grader.harness.runtime.faults import ImportFailed, Missing, NotAState, Raised, StudentFault

Move = tuple[int, int]

OWN_LIMIT = 200  # positions of the student's own game to walk (the lesson's has 155)
MOST_MOVES = 6  # a path longer than the board has cells is not a game any more
START = isolation.start()
LESSON = isolation.positions()  # every position of the lesson's game, smallest first


def items(answer: Any) -> list[Any] | None:
    """The items of an answer of any collection type, or None."""
    if type(answer) in (list, tuple, set, frozenset):
        return list(answer)
    if isinstance(answer, Foreign) and answer.items is not None:
        return answer.items
    return None


def as_move(item: Any) -> Move | None:
    """A move, taking [x, y] for (x, y) (its type is judged by its own test), or None."""
    if type(item) is list and len(item) == 2:
        item = tuple(item)
    return item if checks.is_move(item) else None


def as_moves(answer: Any) -> list[Move] | None:
    """The moves of an answer, or None when it is no collection of moves."""
    got = items(answer)
    moves = [as_move(item) for item in got] if got is not None else None
    # (``None not in moves``: a list of moves, which the type checker can't follow)
    return cast("list[Move]", moves) if moves is not None and None not in moves else None


def same_moves(expected: Iterable[Move], answer: Any) -> bool:
    """Whether an answer holds exactly the expected moves, each as often."""
    got = as_moves(answer)
    return got is not None and Counter(got) == Counter(expected)


def moves_text(moves: Iterable[Move]) -> str:
    return ", ".join(f"({x}, {y})" for x, y in sorted(moves)) or "none"


def drawn(path: Path) -> GameState:
    """A state to draw for a path, whatever its legality."""
    state = START
    for move in path:
        state = state._play(move)
    return state


def on_board(move: Move) -> bool:
    return 0 <= move[0] < START._width and 0 <= move[1] < START._height


def trusted_legal(path: Path) -> bool:
    """Whether every move of ``path`` is legal in the lesson's game."""
    state = START
    for move in path:
        if move not in state.get_legal_moves():
            return False
        state = state._play(move)
    return True


# -- the rules ------------------------------------------------------------------


def ask_moves(game: GameProbe, positions: Iterable[tuple[State, Path]]) -> Answer:
    return game.ask(positions, lambda steps, state, path: steps.moves(steps.replay(path)))


def refused(observation: Observation) -> tuple[Path, Move] | None:
    """(the position before, the move) where the student's forecast_move raised,
    or returned no state, while the lesson's sequence was replayed; or None.
    (Step 0 of the replay is GameState(), step i plays the path's i-th move.)"""
    fault = observation.answer
    if isinstance(fault, Raised) and fault.name == "forecast_move":
        step = getattr(fault, "step", 0)
    elif isinstance(fault, NotAState):
        step = getattr(fault, "step", 0) - 1  # the call before made the non-state
    else:
        return None
    path = observation.path
    return (path[:step - 1], path[step - 1]) if 1 <= step <= len(path) else None


def _reproduces(model: GameModel, observation: Observation) -> bool:
    """Whether the model, in the student's place, gives the student's answer: the
    same moves, or a refusal of a move its own rules do not allow."""
    try:
        if checks.raised(observation):
            refusal = refused(observation)
            return (refusal is not None
                    and refusal[1] not in model.game.replay(refusal[0]).get_legal_moves())
        return same_moves(model.game.replay(observation.path).get_legal_moves(),
                          observation.answer)
    except IndexError:  # a move off the model's board (a board of the wrong size)
        return False


def _said(found: list[str], observations: Sequence[Observation]) -> str:
    """What the reproducing models do, in the student's terms."""
    says = []
    for mistake in found:
        for model in isolation.flawed():
            if model.mistake == mistake and mistakes.diagnose([(mistake, model)], _reproduces,
                                                              observations):
                says.append(model.says)
                break
    return "What your code does: " + "; or ".join(says) + "."


def shared_board(game: GameProbe) -> bool:
    """Whether playing on one fresh GameState() changes another: a board shared by
    every instance, judged by behaviour on a fresh import of the student's file."""
    game.student.restart()
    steps = game.steps()
    before = steps.moves(steps.new())
    try:
        steps.run()
        moves = as_moves(before.value)
        if not moves:
            return False
        steps.play(steps.new(), moves[0])
        after = steps.moves(steps.new())
        steps.run()
    except StudentFault:
        return False
    return Counter(as_moves(after.value) or []) != Counter(moves)


def diagnose_rules(game: GameProbe, observations: Sequence[Observation]) -> Diagnosis:
    # The starter: no moves wherever a position is reached, and forecast_move
    # returns no state (the positions past the start are not reached at all).
    reached = [o for o in observations if not isinstance(o.answer, NotAState)]
    if reached and all(o.answer is None for o in reached):
        return ["stub"]
    models = [(model.mistake, model) for model in isolation.flawed()]
    found = mistakes.diagnose(models, _reproduces, observations)
    if found:
        return found, _said(found, observations)
    if shared_board(game):
        return ["shared_class_board"], ("What your code does: playing a move on one "
                                        "GameState changed a fresh GameState().")
    return []


def rules_detail(observation: Observation) -> list[str]:
    """What differs on the smallest wrong position, move by move."""
    refusal = refused(observation)
    if refusal:
        before, move = refusal
        at = checks.where(before) if before else "at the start"
        return [f"(this position could not be reached: your forecast_move would not play "
                f"{move} {at}, a legal move there)"]
    got = as_moves(observation.answer)
    if got is None:
        return []
    expected, answer = Counter(observation.state.get_legal_moves()), Counter(got)
    lines = []
    for label, moves in (("missing", expected - answer), ("extra", answer - expected)):
        if moves:
            lines.append(f"{label + ':':10}{moves_text(moves.elements())}")
    return lines


def _moves_observations(game: GameProbe, positions: Sequence[tuple[State, Path]]
                        ) -> list[Observation]:
    return checks.collect(
        positions, ask_moves(game, positions),
        lambda s, answer: same_moves(s.get_legal_moves(), answer),
        lambda s: "the moves " + moves_text(s.get_legal_moves()))


def check_legal_moves(game: GameProbe, positions: Sequence[tuple[State, Path]],
                      what: str = "get_legal_moves") -> None:
    """The student's legal moves on the lesson's positions, each move once. A
    mistake is named from the answers on the whole game, whatever the test's
    positions, so that every rules test names the same one."""
    observations = _moves_observations(game, positions)
    asked: list[list[Observation]] = []

    def whole() -> list[Observation]:
        if not asked:
            asked.append(observations if len(positions) == len(LESSON) else
                         _moves_observations(game, LESSON))
        return asked[0]

    checks.verdict(what, observations, lambda found: diagnose_rules(game, whole()),
                   detail=rules_detail, facts=lambda found: rules_facts(game, found, whole()))


def transposed(game: GameProbe) -> Fact | None:
    """Whether the student's class plays the lesson's game with x and y swapped:
    replayed with every move read as (y, x), it gives the lesson's moves, read
    the same way, on every position (whatever it does with a move off its board)."""
    swapped = [(state, tuple(move[::-1] for move in path)) for state, path in LESSON]
    answers = ask_moves(game, swapped)
    for state, path in swapped:
        try:
            answer = answers(state, path)
        except StudentFault:
            return None
        if not same_moves([move[::-1] for move in state.get_legal_moves()], answer):
            return None
    return Fact("board_transposed", f"replayed with every move read as (y, x), your "
                                    f"GameState gives the lesson's legal moves, read the same "
                                    f"way, on all {len(LESSON)} positions: it plays the "
                                    "lesson's board turned on its side, 2 cells wide and 3 "
                                    "tall, so its moves come out as (y, x)")


def rules_facts(game: GameProbe, found: Sequence[Observation], whole: Sequence[Observation]
                ) -> list[Fact]:
    """What the student's rules were seen to do where no model gives its answers:
    the lesson's game turned on its side, or else the facts of the smallest
    wrong answer of ``found``, each with how many wrong answers of the whole
    game show one of its kind."""
    swapped = transposed(game)
    if swapped:
        return [swapped]
    answered = [(o.path, moves) for o in checks.wrong(whole) if not checks.raised(o)
                and (moves := as_moves(o.answer)) is not None]
    kinds = Counter(hint for path, moves in answered
                    for hint in {fact.hint for fact in move_facts(path, moves)})
    first = next((o for o in checks.wrong(found) if not checks.raised(o)
                  and as_moves(o.answer) is not None), None)
    if first is None:
        return []
    place = checks.where(first.path)
    place = "At " + place if not first.path else place[0].upper() + place[1:]
    facts: dict[str | None, Fact] = {}
    for fact in move_facts(first.path, as_moves(first.answer) or []):
        seen = f" (seen on {kinds[fact.hint]} of the {len(checks.wrong(whole))} wrong positions)"
        facts.setdefault(fact.hint, Fact(fact.hint, f"{place}, {fact.says}{seen}"))
    return list(facts.values())


# -- the student's own game ----------------------------------------------------------


def _key(path: Path) -> tuple[frozenset[Move], Path, int]:
    """A position by the lesson's count: the closed cells, where each player
    stands, whose turn it is."""
    return frozenset(path), path[-2:], len(path) % 2


def walk(game: GameProbe) -> dict[Path, Any]:
    """The positions the student's own rules reach from GameState(), each once,
    smallest first: {path: the answer of get_legal_moves there, or its fault}.
    Only moves on the board are followed."""
    found: dict[Path, Any]
    frontier: list[Path]
    found, seen, frontier = {}, {_key(())}, [()]
    while frontier:
        answer = ask_moves(game, [(None, path) for path in frontier])
        following = []
        for path in frontier:
            try:
                found[path] = answer(None, path)
            except ImportFailed:
                raise  # no game to walk: the report says so once, as for every test
            except StudentFault as fault:
                found[path] = fault
                continue
            if len(path) == MOST_MOVES:
                continue
            for move in sorted(own_moves(found[path])):
                child = path + (move,)
                if _key(child) not in seen:
                    seen.add(_key(child))
                    following.append(child)
        frontier = following[:OWN_LIMIT - len(found)]
    return found


def own_moves(answer: Any) -> list[Move]:
    """The distinct moves on the board of an answer, in the student's order."""
    moves = [m for m in map(as_move, items(answer) or []) if m and on_board(m)]
    return list(dict.fromkeys(moves))


def check_answer_types(game: GameProbe) -> None:
    """get_legal_moves returns a plain list of (x, y) tuples wherever the student's
    own rules lead (a crash there is the rules tests' to judge, unless nothing
    but crashes came back)."""
    answers = walk(game)
    answered = {p: a for p, a in answers.items() if not isinstance(a, StudentFault)}
    positions = [(drawn(p), p) for p in (answered or answers)]

    def plain(state: State, answer: Any) -> bool:
        return type(answer) is list and all(checks.is_move(m) for m in answer)

    def ask(state: State, path: Path) -> Any:
        if isinstance(answers[path], StudentFault):
            raise answers[path]
        return answers[path]

    observations = checks.collect(positions, ask, plain,
                                  lambda s: "a list of (x, y) tuples")
    checks.verdict("The type of get_legal_moves' answer", observations, _type_mistakes)


def _type_mistakes(observations: list[Observation]) -> Diagnosis:
    first = checks.wrong(observations)[0]
    if checks.raised(first):
        return []
    answer = first.answer
    if type(answer) is not list and items(answer) is not None:
        kind = answer.type_name if isinstance(answer, Foreign) else type(answer).__name__
        return ["moves_not_list"], (f"What your code does: get_legal_moves returns a {kind}, "
                                    "not a list.")
    if any(type(item) is list and as_move(item) for item in items(answer) or []):
        return ["move_not_tuple"], "What your code does: its moves are lists [x, y]."
    return []


TRIAL_STEPS = ("child", "after", "moves", "shares")  # in the order they run


@dataclass
class Trial:
    """What forecasting one move from one of the student's own positions did."""

    move: Move
    fresh: object  # the moves the child shows when made from a fresh state (the walk's)
    refs: dict[str, Ref] = field(default_factory=dict)  # a step of TRIAL_STEPS -> its Ref
    fault: StudentFault | None = None  # the fault that stopped the position's calls here
    failed: str = ""  # at which step

    def ran(self, name: str) -> bool:
        return self.refs[name].reply is not None

    def value(self, name: str) -> Any:
        return self.refs[name].value if self.ran(name) else None

    @property
    def same(self) -> bool:
        """Whether forecast_move returned the very state it was called on."""
        return self.ran("child") and self.refs["child"].returned_self


@dataclass
class OwnPosition:
    path: Path
    before: Ref | None = None  # the Ref of the parent's moves before any forecast
    trials: list[Trial] = field(default_factory=list)
    fault: StudentFault | None = None  # a fault before the first forecast


def _queue(steps: GameSteps, path: Path, moves: list[Move], answers: dict[Path, Any]
           ) -> OwnPosition:
    position = OwnPosition(path)
    parent = steps.replay(path)
    position.before = steps.moves(parent)
    for move in moves:
        trial = Trial(move, answers.get(path + (move,)))
        trial.refs["child"] = child = steps.play(parent, move)
        trial.refs["after"] = steps.moves(parent)
        trial.refs["moves"] = steps.moves(child)
        trial.refs["shares"] = steps.shares(parent, child)
        position.trials.append(trial)
    return position


def _place(position: OwnPosition, fault: StudentFault) -> None:
    """Pin the fault that stopped a position's calls on the trial it stopped."""
    step = getattr(fault, "step", 0)
    for trial in position.trials:
        for name, ref in trial.refs.items():
            if ref.index == step:
                trial.fault, trial.failed = fault, name
                return
    position.fault = fault


def forecast_trials(game: GameProbe) -> list[OwnPosition]:
    """Every move of every position of the student's own game, forecast in turn
    from one parent: the parent's moves before and after each, the child's
    moves, whether the child is the parent, what the two share. One request."""
    answers = walk(game)
    positions: list[OwnPosition]
    plans: list[GameSteps]
    positions, plans = [], []
    for path, answer in answers.items():
        moves = [] if isinstance(answer, StudentFault) else own_moves(answer)
        if not path and not moves:  # forecast_move is tried all the same
            moves = START.get_legal_moves()
        if moves:
            plans.append(game.steps())
            positions.append(_queue(plans[-1], path, moves, answers))
    for position, fault in zip(positions, game.run_plans(plans), strict=True):
        if fault:
            _place(position, fault)
    return positions


def _judged_elsewhere(fault: object) -> bool:
    """A raise is the rules tests' to judge; a hang or a crash of the process fails here."""
    return isinstance(fault, (Raised, Missing))


def new_state_problem(position: OwnPosition) -> tuple[str, str] | None:
    """(kind, what is wrong) with forecast_move's results at one position, or None."""
    if position.fault:
        return "fault", str(position.fault)
    assert position.before is not None  # queued with the position (``_queue``)
    before = position.before.value
    for trial in position.trials:
        if trial.same:
            return "same", f"forecast_move({trial.move}) returned the very state it was called on"
        if trial.failed == "moves" and isinstance(trial.fault, Missing):
            return "not_state", str(trial.fault)  # no state, whatever became of the parent
        if trial.ran("after") and not unchanged(before, trial.value("after")):
            return None  # the parent changed: what follows is the other test's to judge
        if trial.failed == "child" and trusted_legal(position.path + (trial.move,)):
            return "refused", (f"forecast_move({trial.move}) failed, though the move is legal "
                               f"here and your get_legal_moves offers it: {trial.fault}")
        if trial.fault:
            return None if _judged_elsewhere(trial.fault) else ("fault", str(trial.fault))
    return None


def unchanged(before: Any, after: Any) -> bool:
    moves = as_moves(before), as_moves(after)
    if None in moves:
        return describe(before) == describe(after)
    return Counter(moves[0]) == Counter(moves[1])


def parent_problem(position: OwnPosition) -> tuple[str, str] | None:
    """(kind, what forecasting disturbed) at one position, or None. A child that
    is no state at all leaves nothing to compare: that fails here too."""
    if position.fault:
        return "fault", str(position.fault)
    assert position.before is not None  # queued with the position (``_queue``)
    before = position.before.value
    for trial in position.trials:
        if trial.failed == "moves" and isinstance(trial.fault, Missing):
            return "not_state", str(trial.fault)
        if trial.failed == "after" and isinstance(trial.fault, Raised):
            return "changed", (f"after forecast_move({trial.move}) the parent's get_legal_moves "
                               f"failed: {trial.fault}")
        if trial.ran("after") and not unchanged(before, trial.value("after")):
            return "changed", (f"after forecast_move({trial.move}) the parent's legal moves "
                               f"were {describe(trial.value('after'), 120)}; before, "
                               f"{describe(before, 120)}")
        fresh = as_moves(trial.fresh)
        if trial.ran("moves") and fresh is not None and not same_moves(fresh,
                                                                       trial.value("moves")):
            return "sibling", (f"forecast_move({trial.move}) after its siblings gave a state "
                               f"whose legal moves were {describe(trial.value('moves'), 120)}; "
                               f"forecast from a fresh state they are {describe(trial.fresh, 120)}")
        if trial.fault:
            return None if _judged_elsewhere(trial.fault) else ("fault", str(trial.fault))
    return None


def _judge(positions: list[OwnPosition],
           problem: Callable[[OwnPosition], tuple[str, str] | None], expected: str
           ) -> tuple[list[Observation], set[str]]:
    """Observations of one forecast check, and the kinds of problem seen."""
    found = {p.path: problem(p) for p in positions}
    stopped = {p.path: p.fault for p in positions}

    def ask(state: State, path: Path) -> str:
        fault, seen = stopped[path], found[path]
        if seen and seen[0] == "fault" and isinstance(fault, Raised):
            raise fault  # kept as the crash it is, told as the crash
        return seen[1] if seen else ""

    observations = checks.collect([(drawn(p.path), p.path) for p in positions], ask,
                                  lambda state, answer: not answer, lambda state: expected)
    return observations, {kind for kind, _ in filter(None, found.values())}


def check_new_state(game: GameProbe) -> None:
    """forecast_move returns a new state, on every move of the student's own game."""
    observations, kinds = _judge(forecast_trials(game), new_state_problem,
                                 "a new GameState for every move")
    named = ["forecast_returns_self"] if "same" in kinds else \
        ["forecast_not_a_state"] if "not_state" in kinds else []
    checks.verdict("forecast_move", observations, lambda found: named, shown=str)


def check_parent_unchanged(game: GameProbe, notes: list[str]) -> None:
    """forecast_move leaves its state alone, and each child is what a fresh state
    gives, on every move of the student's own game. Which objects parent and child
    share is asked of the student's own process: a note or a hint, never a verdict."""
    positions = forecast_trials(game)
    observations, kinds = _judge(positions, parent_problem, "the parent left unchanged")
    shared = sorted({path for p in positions for t in p.trials
                     for path in (t.value("shares") or []) if type(path) is str})[:3]
    if shared and not checks.wrong(observations):
        notes.append(f"forecast_move's new state shares {', '.join(shared)} with its parent: "
                     "harmless in these tests, but a change to one would show in the other; "
                     "copy.deepcopy avoids it.")
    checks.verdict("forecast_move", observations,
                   lambda found: _parent_mistakes(game, positions, kinds, shared), shown=str)


def _parent_mistakes(game: GameProbe, positions: list[OwnPosition], kinds: set[str],
                     shared: list[str]) -> Diagnosis:
    # Returning self counts where it comes first: a state that refuses a move
    # (returning itself) once an earlier forecast changed it has another mistake.
    if any((new_state_problem(p) or ("",))[0] == "same" for p in positions):
        return ["forecast_returns_self"]
    if not kinds & {"changed", "sibling"}:
        return ["forecast_not_a_state"] if "not_state" in kinds else []
    if shared_board(game):
        return ["shared_class_board"], ("What your code does: playing a move on one "
                                        "GameState changed a fresh GameState().")
    if shared:
        return ["shallow_copy"], (f"What your code does: forecast_move's new state shares "
                                  f"{', '.join(shared)} with its parent.")
    return ["forecast_mutates"] if "changed" in kinds else []
