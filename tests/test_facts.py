"""Facts from the trace: what a student's code was seen to do, where no model of
a known mistake gives its answers (grader/harness/checking/facts.py).

The student's code runs here in the test's own process, the grader's own
stand-ins installed as the worker installs them (``inprocess``), so that
each fact is checked on code written in more than one shape, and on
reference solutions mutated at random: whenever a fact is stated, the
mutation that was made explains it (no wrong word)."""

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import inprocess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.contracts.protocol import Tested
from grader.games import isolation, nim, unfinished
from grader.harness.checking import traces
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import CASES, Fact, first_hinted, told
from grader.harness.lesson import game_facts
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.deepening_checks import clock_fact
from grader.harness.lesson.search import Search
from grader.harness.lesson.search_facts import smallest_facts, trace_fact
from grader.harness.nim.facts import Recorded, lines, negamax_fact
from grader.harness.nim.search import NegamaxFlaws
from grader.harness.runtime.faults import Raised
from grader.harness.tictactoe import search as lab_search
from grader.harness.tictactoe.checks import unfinished as lab_unfinished
from grader.harness.tictactoe.facts import lab_fact

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"
ALPHA_BETA = (SOLUTIONS / "alphabeta" / "solution" / "alphabeta.py").read_text()
DEPTH_LIMIT = (SOLUTIONS / "depth_limit" / "solution" / "minimax.py").read_text()
HELPERS = (SOLUTIONS / "helpers" / "solution" / "minimax_helpers.py").read_text()
LAB = (SOLUTIONS / "tic_tac_toe_alphabeta" / "solution" / "tictactoe.py").read_text()
NEGAMAX = (SOLUTIONS / "nim_negamax" / "solution" / "negamax.py").read_text()
POSITIONS = unfinished(isolation)[:20]
# boards of the lab with a few marks: small searches, where pruning shows
BOARDS = [board for board, _ in lab_unfinished("max_alpha_beta")
          if 3 <= 9 - board.count(".") <= 5][::5]


def mutated(source: str, *changes: tuple[str, str]) -> str:
    for old, new in changes:
        assert old in source, old
        source = source.replace(old, new, 1)
    return source


def _decision_fact(source: str, function: str, search: Callable[[], Search]) -> Fact | None:
    """The fact the checks state for a decision whose terminal tests differ from
    the reference's: of the smallest wrong cases (position, depth), as
    ``search_facts.smallest_facts`` chooses; None where none differs."""
    student = inprocess.module(source)
    cases = []
    for depth in (1, 2, 3, 4):
        for state, path in POSITIONS:
            _, trace = inprocess.isolation(student, function, state, depth)
            same = Counter(inprocess.tested(trace)) == search().decision(state, depth)[0]
            cases.append(Observation(state, path, trace, same, {"depth": depth}))

    def fact(case: Observation, origin: str) -> Fact | None:
        depth = case.extra["depth"]
        return trace_fact(case.answer, case.state,
                          lambda reference: reference.decision(case.state, depth), search(),
                          inprocess.IsolationStudent(student), origin=origin)

    found = smallest_facts(cases, fact)
    return found[0] if found else None


def alpha_beta_fact(source: str) -> Fact | None:
    return _decision_fact(source, "alpha_beta_search", lambda: AlphaBeta(None, isolation))


def decision_fact(source: str) -> Fact | None:
    return _decision_fact(source, "minimax_decision", lambda: Search(game=isolation))


def lab_search_fact(source: str, name: str = "max_alpha_beta") -> Fact | None:
    """The fact the checks state for the lab's alpha-beta ``name`` on the boards
    whose is_end calls or value differ from the reference's: the first of the
    smallest three that shows one with a hint, as the lab's checks choose."""
    student = inprocess.module(source)
    maximising = name.startswith("max")
    wrong = []
    for board in BOARDS:
        found, trace = inprocess.lab(student, name, board, -2, 2)
        value, size, _ = lab_search.pruned_tree(board, maximising)
        if len(inprocess.tested(trace)) != size or \
                not (isinstance(found, tuple) and found[0] == value):
            wrong.append((board, trace))
    wrong.sort(key=lambda case: case[0].count("."))
    found = first_hinted(wrong[:CASES], lambda case: lab_fact(
        case[0], name, case[1], "the board above", inprocess.LabStudent(student, name)))
    return found[0] if found else None


# -- the engine -----------------------------------------------------------------

def test_a_correct_search_shows_no_fact():
    """The references, and correct ones of other shapes, part nowhere."""
    fail_hard = mutated(ALPHA_BETA, ("            return v\n        beta = min(beta, v)",
                                     "            return alpha\n        beta = min(beta, v)"))
    for source in (ALPHA_BETA, fail_hard):
        student = inprocess.module(source)
        for state, _ in POSITIONS[:12]:
            for depth in (1, 2, 3):
                _, trace = inprocess.isolation(student, "alpha_beta_search", state, depth)
                assert trace_fact(trace, state, lambda s, st=state, d=depth: s.decision(st, d),
                                  AlphaBeta(None, isolation),
                                  inprocess.IsolationStudent(student)) is None
    student = inprocess.module(LAB)
    for board in BOARDS[:20]:
        _, trace = inprocess.lab(student, "max_alpha_beta", board, -2, 2)
        assert lab_fact(board, "max_alpha_beta", trace, "the board",
                        inprocess.LabStudent(student, "max_alpha_beta")) is None


def test_facts_are_told_with_their_hints_once_and_a_fact_without_one_names_none():
    hints, text = told([Fact("a", "one thing"), Fact(None, "another"), Fact("a", "a third")])
    assert hints == ["a"]
    assert text.splitlines() == ["What your code does:",
                                 "- one thing", "- another", "- a third"]


def test_a_value_past_the_same_bound_agrees_as_a_fail_hard_search_gives_it():
    node = traces.Node("n", None, (), minimising=True, window=(0, 1), value=-1)
    assert traces.agrees(node, 0) and traces.agrees(node, -1) and not traces.agrees(node, 1)
    assert not traces.agrees(node, None) and not traces.agrees(node, "0")
    inside = traces.Node("n", None, (), minimising=True, window=(-1, 1), value=0)
    assert traces.agrees(inside, 0) and not traces.agrees(inside, -1)


# -- each fact, in code of more than one shape ----------------------------------

MIN_PRUNE = "        if v <= alpha:\n            return v\n"
MAX_PRUNE = "        if v >= beta:\n            return v\n"
MAX_CALL = "max_value(gameState.forecast_move(m), alpha, beta, depth - 1)"
MIN_CALL = "min_value(gameState.forecast_move(m), alpha, beta, depth - 1)"
SHAPES = {
    "no_cutoff_at_bound": [
        # a comparison too strict, and a flag where a return was due
        [("if v >= beta:", "if v > beta:")],
        [(MIN_PRUNE, "        if v <= alpha:\n            done = True\n")],
        [(MAX_PRUNE, "")],
    ],
    "cutoff_before_bound": [
        [("if v >= beta:", "if v <= beta:")],
        [("if v <= alpha:", "if v <= beta:")],
    ],
    "window_passed_wrong": [
        [(MAX_CALL, "max_value(gameState.forecast_move(m), float('-inf'), float('inf'), "
                    "depth - 1)")],
        [(MIN_CALL, "min_value(gameState.forecast_move(m), beta, alpha, depth - 1)")],
        [("        alpha = max(alpha, v)\n    return best_move", "    return best_move")],
    ],
    "searches_past_depth": [
        [("    if depth <= 0:\n        return 0\n    v = float(\"inf\")",
          "    if depth < 0:\n        return 0\n    v = float(\"inf\")")],
        [(MAX_CALL, "max_value(gameState.forecast_move(m), alpha, beta, depth)")],
    ],
    "search_stops_early": [
        [("def max_value(gameState, alpha, beta, depth):\n    if terminal_test(gameState):\n"
          "        return -1\n    if depth <= 0:\n        return 0\n",
          "def max_value(gameState, alpha, beta, depth):\n    if depth <= 0:\n        return 0\n"
          "    if terminal_test(gameState):\n        return -1\n")],
        [("def min_value(gameState, alpha, beta, depth):\n    if terminal_test(gameState):\n"
          "        return 1\n    if depth <= 0:\n        return 0\n",
          "def min_value(gameState, alpha, beta, depth):\n    if depth == 0 or "
          "terminal_test(gameState):\n        return 0 if depth == 0 else 1\n")],
    ],
    "terminal_test_twice": [
        [("def min_value(gameState, alpha, beta, depth):\n    if terminal_test(gameState):",
          "def min_value(gameState, alpha, beta, depth):\n    terminal_test(gameState)\n"
          "    if terminal_test(gameState):")],
        [("    if depth <= 0:\n        return 0\n    v = float(\"-inf\")",
          "    if depth <= 0 or terminal_test(gameState):\n        return 0\n"
          "    v = float(\"-inf\")")],
    ],
    "terminal_value_wrong": [
        [("        return 1\n", "        return -1\n")],
        [("    if terminal_test(gameState):\n        return -1\n",
          "    if terminal_test(gameState):\n        lost = 1\n        return lost\n")],
    ],
}


@pytest.mark.parametrize("hint, changes", [(hint, changes) for hint, shapes in SHAPES.items()
                                           for changes in shapes])
def test_each_alpha_beta_fact_is_seen_in_every_shape(hint, changes):
    fact = alpha_beta_fact(mutated(ALPHA_BETA, *changes))
    assert fact is not None and fact.hint == hint, fact


MINIMAX_SHAPES = {
    "move_searched_twice": [
        # a comprehension asked twice, and a loop that searches each child again
        [("""    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m), depth - 1))
    return v""", """    values = [max_value(gameState.forecast_move(m), depth - 1)
              for m in gameState.get_legal_moves()]
    again = [max_value(gameState.forecast_move(m), depth - 1)
             for m in gameState.get_legal_moves()]
    return min(again)""")],
        [("        v = max(v, min_value(gameState.forecast_move(m), depth - 1))",
          "        if min_value(gameState.forecast_move(m), depth - 1) > v:\n"
          "            v = min_value(gameState.forecast_move(m), depth - 1)")],
    ],
    "moves_left_unsearched": [
        [("        v = min(v, max_value(gameState.forecast_move(m), depth - 1))\n    return v",
          "        v = min(v, max_value(gameState.forecast_move(m), depth - 1))\n"
          "        return v\n    return v")],
        [("    for m in gameState.get_legal_moves():\n        v = max(",
          "    for m in gameState.get_legal_moves()[:1]:\n        v = max(")],
    ],
    "search_stops_early": [
        [("    if depth <= 0:\n        return 0\n    v = float(\"inf\")",
          "    if depth <= 1:\n        return 0\n    v = float(\"inf\")")],
    ],
    # Each function's cutoff is right (called alone, it searches with depth
    # left): the depth its children are given is not.
    "depth_passed_wrong": [
        [("        v = max(v, min_value(gameState.forecast_move(m), depth - 1))",
          "        v = max(v, min_value(gameState.forecast_move(m), depth - 2))")],
        [("""    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m), depth - 1))""", """    v = float("inf")
    for m in gameState.get_legal_moves():
        depth -= 1
        v = min(v, max_value(gameState.forecast_move(m), depth))""")],
    ],
    "searches_past_depth": [
        [("        score = min_value(gameState.forecast_move(move), depth - 1)",
          "        score = min_value(gameState.forecast_move(move), depth)")],
        [("    if depth <= 0:\n        return 0\n    v = float(\"-inf\")",
          "    if depth < 0:\n        return 0\n    v = float(\"-inf\")")],
    ],
}


@pytest.mark.parametrize("hint, changes", [(hint, changes)
                                           for hint, shapes in MINIMAX_SHAPES.items()
                                           for changes in shapes])
def test_each_minimax_fact_is_seen_in_every_shape(hint, changes):
    fact = decision_fact(mutated(DEPTH_LIMIT, *changes))
    assert fact is not None and fact.hint == hint, fact


def test_a_search_of_the_position_it_was_given_is_said_in_both_shapes():
    """The other function called on the same position (the grader's standing
    in), and the function calling itself until Python stops it."""
    state = POSITIONS[0][0]
    for source, trusted in (
            (mutated(HELPERS, ("max_value(gameState.forecast_move(m))", "max_value(gameState)")),
             ["max_value"]),
            (mutated(HELPERS, ("max_value(gameState.forecast_move(m))", "min_value(gameState)")),
             [])):
        student = inprocess.module(source)
        _, trace = inprocess.isolation(student, "min_value", state, trusted=trusted)
        fact = trace_fact(trace, state, lambda search: search.min_value(state),
                          Search(game=isolation), inprocess.IsolationStudent(student, trusted),
                          2 if trusted else 1)
        assert fact is not None and fact.hint == "recursion_on_same_position", fact


def test_a_value_computed_wrong_from_right_values_below_is_said_where_it_is():
    """min_value that keeps the largest value (in a loop, and with max()): the
    deepest node whose own value is wrong is named, its moves' values right."""
    state = POSITIONS[0][0]
    for changes in ([("""    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m)))
    return v""", """    best = None
    for m in gameState.get_legal_moves():
        value = max_value(gameState.forecast_move(m))
        if best is None or value > best:
            best = value
    return best""")],
                    [("""    v = float("inf")
    for m in gameState.get_legal_moves():
        v = min(v, max_value(gameState.forecast_move(m)))
    return v""", "    return max(max_value(gameState.forecast_move(m)) "
                 "for m in gameState.get_legal_moves())")]):
        student = inprocess.module(mutated(HELPERS, *changes))
        _, trace = inprocess.isolation(student, "min_value", state, trusted=["max_value"])
        fact = trace_fact(trace, state, lambda search: search.min_value(state),
                          Search(game=isolation),
                          inprocess.IsolationStudent(student, ["max_value"]), 2)
        assert fact is not None and fact.hint == "aggregation_swapped", fact
        assert "the largest of the values of its moves" in fact.says


LAB_SHAPES = {
    "no_cutoff_at_bound": [
        [("if maxv >= beta:", "if maxv > beta:")],
        [("""                    if maxv >= beta:
                        return (maxv, px, py)""", """                    if maxv >= beta:
                        break""")],
    ],
    "window_passed_wrong": [
        [("(m, min_i, min_j) = self.min_alpha_beta(alpha, beta)",
          "(m, min_i, min_j) = self.min_alpha_beta(beta, alpha)")],
        [("""                    if maxv > alpha:
                        alpha = maxv
""", "")],
        [("(m, min_i, min_j) = self.min_alpha_beta(alpha, beta)",
          "(m, min_i, min_j) = self.min_alpha_beta(-2, 2)")],
    ],
    "is_end_called_twice": [
        [("""        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)""", """        self.is_end()
        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)""")],
        [("""        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)""", """        if self.is_end() == 'X':
            return (-1, 0, 0)
        result = self.is_end()
        if result == 'X':
            return (-1, 0, 0)""")],
    ],
    "values_wrong_side": [
        [("""        if result == 'X':
            return (-1, 0, 0)
        elif result == 'O':
            return (1, 0, 0)
        elif result == '.':
            return (0, 0, 0)

        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'O'""", """        if result == 'X':
            return (1, 0, 0)
        elif result == 'O':
            return (-1, 0, 0)
        elif result == '.':
            return (0, 0, 0)

        for i in range(3):
            for j in range(3):
                if self.current_state[i][j] == '.':
                    self.current_state[i][j] = 'O'""")],
    ],
}


@pytest.mark.parametrize("hint, changes", [(hint, changes) for hint, shapes in LAB_SHAPES.items()
                                           for changes in shapes])
def test_each_lab_fact_is_seen_in_every_shape(hint, changes):
    fact = lab_search_fact(mutated(LAB, *changes))
    assert fact is not None and fact.hint == hint, fact


def _negamax_fact(source: str) -> Fact | None:
    """The fact the checks state for the first wrong cases of Nim."""
    student = inprocess.module(source)
    wrong = []
    for coins in range(1, 9):
        for depth in (1, 2, 3):
            case = (nim.Nim(coins), "A", depth)
            _, trace = inprocess.negamax(student, *case)
            recorded = Recorded()
            recorded.search(*case)
            if inprocess.tested(trace) != [line for line, _ in lines(recorded.root)]:
                wrong.append((case, trace))
    found = first_hinted(wrong[:CASES], lambda case: negamax_fact(*case))
    return found[0] if found else None


@pytest.mark.parametrize("hint, changes", [
    ("same_player_searched", [("game.move(player, move), opponent,",
                               "game.move(player, move), player,")]),
    ("same_player_searched", [("    opponent = game.opponent(player)\n",
                               "    opponent = player\n")]),
    ("depth_zero_not_scored", [("    if depth == 0:", "    if depth < 0:")]),
    ("depth_zero_not_scored", [("game.move(player, move), opponent, depth - 1, score)",
                              "game.move(player, move), opponent, depth, score)")]),
    ("moves_not_all_tried", [("    for move in moves:", "    for move in moves[:1]:")]),
    ("moves_not_all_tried", [("            best_move, best_rating = move, rating",
                                "            best_move, best_rating = move, rating\n"
                                "            break")]),
])
def test_each_negamax_fact_is_seen_in_every_shape(hint, changes):
    fact = _negamax_fact(mutated(NEGAMAX, *changes))
    assert fact is not None and fact.hint == hint, fact


def test_a_negamax_trace_as_a_model_makes_it_names_what_the_model_does():
    case = (nim.Nim(4), "A", 3)
    recorded = Recorded(NegamaxFlaws(same_player=True))
    recorded.search(*case)
    trace = [("t", line) for line, _ in lines(recorded.root)]
    fact = negamax_fact(case, trace)
    assert fact is not None and fact.hint == "same_player_searched"
    assert "game.move('A', 1)" in fact.says and "'B' is to move" in fact.says


# -- a GameState's moves, on the lesson's board ---------------------------------

def _student_moves(source: str, path: tuple) -> list:
    student = inprocess.module(source)
    state = student.GameState()
    for move in path:
        state = state.forecast_move(move)
    return state.get_legal_moves()


GAMESTATE = (SOLUTIONS / "gamestate" / "solution" / "gamestate.py").read_text()


@pytest.mark.parametrize("hint, path, changed", [
    ("closed_cell_offered", ((0, 0), (1, 0), (0, 1)), lambda moves: [*moves, (0, 0)]),
    ("closed_cell_offered", ((0, 0), (0, 1)), lambda moves: [*moves, (2, 1)]),
    ("move_off_board", ((0, 0), (0, 1)), lambda moves: [*moves, (3, 0)]),
    ("move_repeated", ((0, 0), (0, 1)), lambda moves: [*moves, moves[0]]),
    ("not_a_queen_move", ((0, 1), (1, 0)), lambda moves: [*moves, (2, 0)]),
    ("legal_move_missing", ((0, 0), (2, 0)), lambda moves: moves[1:]),
    ("open_cell_missing", ((0, 0),), lambda moves: moves[1:]),
])
def test_each_move_fact_is_said_on_the_lesson_s_board(hint, path, changed):
    moves = changed(isolation.start().replay(path).get_legal_moves())
    facts = list(game_facts.move_facts(path, moves))
    assert hint in {fact.hint for fact in facts}, facts


def test_a_slide_past_a_closed_cell_is_told_apart_from_a_cell_left_open():
    """Player 1 at (0, 0), player 2 at (1, 0): (2, 0) lies past player 2.
    Offering it alone is a jump; offering (1, 0) as well says that cell is
    open to the student's code, and is told so, the jump not at all."""
    path = ((0, 0), (1, 0))
    legal = isolation.start().replay(path).get_legal_moves()
    jumped = {f.hint for f in game_facts.move_facts(path, [*legal, (2, 0)])}
    assert jumped == {"jumps_closed_cell"}
    opened = {f.hint for f in game_facts.move_facts(path, [*legal, (1, 0), (2, 0)])}
    assert opened == {"closed_cell_offered"}


# -- mutations of the references: a fact is stated only where the mutation explains it

ALPHA_BETA_MUTATIONS = {
    "max compares strictly": ([("if v >= beta:", "if v > beta:")], {"no_cutoff_at_bound"}),
    "min compares strictly": ([("if v <= alpha:", "if v < alpha:")], {"no_cutoff_at_bound"}),
    "max never prunes": ([(MAX_PRUNE, "")], {"no_cutoff_at_bound"}),
    "min never prunes": ([(MIN_PRUNE, "")], {"no_cutoff_at_bound"}),
    "max compares the other way": ([("if v >= beta:", "if v <= beta:")],
                                   {"cutoff_before_bound", "no_cutoff_at_bound"}),
    "min compares with beta": ([("if v <= alpha:", "if v <= beta:")],
                               {"cutoff_before_bound", "no_cutoff_at_bound"}),
    "min's window reset": ([(MAX_CALL, "max_value(gameState.forecast_move(m), float('-inf'), "
                                       "float('inf'), depth - 1)")], {"window_passed_wrong"}),
    "max's window swapped": ([(MIN_CALL, "min_value(gameState.forecast_move(m), beta, alpha, "
                                         "depth - 1)")], {"window_passed_wrong"}),
    "max's alpha never raised": ([("        alpha = max(alpha, v)\n    return v",
                                   "    return v")], {"window_passed_wrong"}),
    "the root's alpha never raised": ([("        alpha = max(alpha, v)\n    return best_move",
                                        "    return best_move")], {"window_passed_wrong"}),
    "min's depth kept": ([(MAX_CALL, "max_value(gameState.forecast_move(m), alpha, beta, "
                                     "depth)")], {"searches_past_depth"}),
    "the root's depth kept": ([("alpha, beta, depth - 1)\n        if v > best_score",
                                "alpha, beta, depth)\n        if v > best_score")],
                              {"searches_past_depth"}),
    "max's cutoff tested first": (SHAPES["search_stops_early"][0], {"search_stops_early"}),
    "min's terminal test repeated": (SHAPES["terminal_test_twice"][0], {"terminal_test_twice"}),
    "min's terminal value flipped": ([("        return 1\n", "        return -1\n")],
                                     {"terminal_value_wrong"}),
    "max searches a child twice": ([("        v = max(v, " + MIN_CALL + ")",
                                     "        " + MIN_CALL + "\n        v = max(v, " + MIN_CALL
                                     + ")")], {"move_searched_twice"}),
}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(sorted(ALPHA_BETA_MUTATIONS)), min_size=1, max_size=2,
                unique=True))
def test_a_fact_about_a_mutated_alpha_beta_is_explained_by_the_mutation(chosen):
    changes = [change for name in chosen for change in ALPHA_BETA_MUTATIONS[name][0]]
    source = ALPHA_BETA
    for old, new in changes:
        if old not in source:  # the other mutation took the line away
            return
        source = source.replace(old, new, 1)
    fact = alpha_beta_fact(source)
    allowed = set().union(*(ALPHA_BETA_MUTATIONS[name][1] for name in chosen))
    assert fact is None or fact.hint is None or fact.hint in allowed, (chosen, fact)


LAB_MUTATIONS = {
    "max compares strictly": ([("if maxv >= beta:", "if maxv > beta:")],
                              {"no_cutoff_at_bound"}),
    "max breaks the inner loop": (LAB_SHAPES["no_cutoff_at_bound"][1],
                                  {"no_cutoff_at_bound"}),
    "max passes the window swapped": (LAB_SHAPES["window_passed_wrong"][0],
                                      {"window_passed_wrong"}),
    "max never raises alpha": (LAB_SHAPES["window_passed_wrong"][1], {"window_passed_wrong"}),
    "max lowers beta": ([("""                    if maxv > alpha:
                        alpha = maxv
""", """                    if maxv < beta:
                        beta = maxv
""")], {"window_passed_wrong", "cutoff_before_bound"}),
    "max asks is_end twice": (LAB_SHAPES["is_end_called_twice"][0], {"is_end_called_twice"}),
    "max scores ends for X": (LAB_SHAPES["values_wrong_side"][0], {"values_wrong_side"}),
}


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(sorted(LAB_MUTATIONS)), min_size=1, max_size=2, unique=True))
def test_a_fact_about_a_mutated_lab_search_is_explained_by_the_mutation(chosen):
    source = LAB
    for name in chosen:
        for old, new in LAB_MUTATIONS[name][0]:
            if old not in source:
                return
            source = source.replace(old, new, 1)
    fact = lab_search_fact(source)
    allowed = set().union(*(LAB_MUTATIONS[name][1] for name in chosen))
    assert fact is None or fact.hint is None or fact.hint in allowed, (chosen, fact)


DEPTH_MUTATIONS = {
    "min's depth kept": (
        [("max_value(gameState.forecast_move(m), depth - 1)",
          "max_value(gameState.forecast_move(m), depth)")], {"searches_past_depth"}),
    "the root's depth kept": (MINIMAX_SHAPES["searches_past_depth"][0], {"searches_past_depth"}),
    "max's cutoff below 0": (MINIMAX_SHAPES["searches_past_depth"][1], {"searches_past_depth"}),
    "max decrements twice": (MINIMAX_SHAPES["depth_passed_wrong"][0], {"depth_passed_wrong"}),
    "min decrements in its loop": (MINIMAX_SHAPES["depth_passed_wrong"][1],
                                   {"depth_passed_wrong"}),
    "min's cutoff at 1": (MINIMAX_SHAPES["search_stops_early"][0], {"search_stops_early"}),
    "max's cutoff tested first": (
        [("    if terminal_test(gameState):\n        return -1\n    if depth <= 0:\n"
          "        return 0\n",
          "    if depth <= 0:\n        return 0\n    if terminal_test(gameState):\n"
          "        return -1\n")], {"search_stops_early"}),
    "min returns inside its loop": (MINIMAX_SHAPES["moves_left_unsearched"][0],
                                    {"moves_left_unsearched"}),
    "max searches a child twice": (MINIMAX_SHAPES["move_searched_twice"][1],
                                   {"move_searched_twice"}),
    "min's terminal test repeated": (
        [("def min_value(gameState, depth):\n    if terminal_test(gameState):",
          "def min_value(gameState, depth):\n    terminal_test(gameState)\n"
          "    if terminal_test(gameState):")], {"terminal_test_twice"}),
}


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(sorted(DEPTH_MUTATIONS)), min_size=1, max_size=2, unique=True))
def test_a_fact_about_a_mutated_depth_limited_search_is_explained_by_the_mutation(chosen):
    source = DEPTH_LIMIT
    for name in chosen:
        for old, new in DEPTH_MUTATIONS[name][0]:
            if old not in source:
                return
            source = source.replace(old, new, 1)
    fact = decision_fact(source)
    allowed = set().union(*(DEPTH_MUTATIONS[name][1] for name in chosen))
    assert fact is None or fact.hint is None or fact.hint in allowed, (chosen, fact)


NEGAMAX_MUTATIONS = {
    "the child searched for the same player": (
        [("game.move(player, move), opponent,", "game.move(player, move), player,")],
        {"same_player_searched"}),
    "the child's depth kept": (
        [("game.move(player, move), opponent, depth - 1, score)",
          "game.move(player, move), opponent, depth, score)")], {"depth_zero_not_scored"}),
    "only the first move searched": ([("    for move in moves:", "    for move in moves[:1]:")],
                                     {"moves_not_all_tried"}),
    "the rating not negated": ([("        rating = -rating\n", "")], set()),
    "Nim's moves known by heart": ([("    moves = game.moves(player)\n",
                                     "    moves = [1, 2, 3]\n")], set()),
    "a tie keeps the last": ([("rating > best_rating", "rating >= best_rating")], set()),
}


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(sorted(NEGAMAX_MUTATIONS)), min_size=1, max_size=2,
                unique=True))
def test_a_fact_about_a_mutated_negamax_is_explained_by_the_mutation(chosen):
    source = NEGAMAX
    for name in chosen:
        for old, new in NEGAMAX_MUTATIONS[name][0]:
            if old not in source:
                return
            source = source.replace(old, new, 1)
    fact = _negamax_fact(source)
    allowed = set().union(*(NEGAMAX_MUTATIONS[name][1] for name in chosen))
    assert fact is None or fact.hint is None or fact.hint in allowed, (chosen, fact)


# -- the decision exercise: the move chosen, beside what each move is worth ----------

DECISION_SHAPES = {
    "a loop over the lesson's 3 columns": (
        "def minimax_decision(gameState):\n"
        "    legal = gameState.get_legal_moves()\n"
        "    best_move, best_score = None, float('-inf')\n"
        "    for y in range(2):\n"
        "        for x in range(3):\n"
        "            if (x, y) in legal:\n"
        "                score = min_value(gameState.forecast_move((x, y)))\n"
        "                if score > best_score:\n"
        "                    best_move, best_score = (x, y), score\n"
        "    return best_move\n"),
    "a comprehension and max(key=...)": (
        "def minimax_decision(gameState):\n"
        "    moves = [m for m in gameState.get_legal_moves() if m[0] < 3]\n"
        "    return max(moves, key=lambda m: min_value(gameState.forecast_move(m)))\n"),
    "a helper function that keeps the smallest": (
        "def _worth(gameState, move):\n"
        "    return min_value(gameState.forecast_move(move))\n\n\n"
        "def minimax_decision(gameState):\n"
        "    return min(gameState.get_legal_moves(), key=lambda m: _worth(gameState, m))\n"),
}


@pytest.mark.parametrize("shape", sorted(DECISION_SHAPES))
def test_a_decision_s_move_is_said_beside_what_each_move_is_worth(shape):
    from grader.harness.lesson.decision_checks import MINIMAX, _chosen_fact
    from grader.harness.lesson.search import values
    from grader.harness.lesson.search_facts import ABOVE

    student = inprocess.module(HELPERS + "\n\n" + DECISION_SHAPES[shape])
    reference = values(isolation)
    wrong = []
    for state, path in [*POSITIONS, *isolation.larger("decision")]:
        move, _ = inprocess.isolation(student, "minimax_decision", state)
        scores = reference.scores(state, None)
        if scores.get(move) != max(scores.values()):
            wrong.append(Observation(state, path, (move, None), False))
    assert wrong
    scores = reference.scores(wrong[0].state, None)
    fact = _chosen_fact(MINIMAX, wrong[0], ABOVE, own_min_value=False)
    assert fact is not None and fact.hint is None
    assert f"returns {wrong[0].answer[0]}, worth " in fact.says
    assert f"a correct decision returns one worth {max(scores.values()):+g}" in fact.says
    assert all(f"{m} " in fact.says for m in scores)  # every move, with its worth
    assert "the provided min_value" in fact.says and "of its own" not in fact.says
    own = _chosen_fact(MINIMAX, wrong[0], ABOVE, own_min_value=True)
    assert own is not None and own.hint is None
    assert own.says.startswith(fact.says) and "defines a min_value of its own" in own.says


# -- iterative deepening: the depths whose terminal tests a run made ---------------

@pytest.mark.parametrize("finished, cut, said", [
    ([3, 4], 5, "depths 3 to 4 in full, then part of depth 5 (none of depths 1 to 2)"),
    ([2], None, "depth 2 in full (none of depth 1)"),
    ([1, 2, 3], None, "depths 1 to 3 in full; a correct one"),
])
def test_the_depths_a_run_searched_are_said_as_its_terminal_tests_show(finished, cut, said):
    from grader.harness.lesson import deepening
    from grader.harness.lesson.deepening_checks import depths_fact

    state, path = POSITIONS[0]
    calls = sum((deepening.depth_calls(state, depth) for depth in finished), Counter())
    if cut is not None:  # part of the next depth: its first few tests
        calls.update(list(deepening.depth_calls(state, cut).elements())[:3])
    observation = Observation(state, path, (None, deepening.Tested(calls)), False,
                              {"time_left() at the start": "40 ticks", "depths that fit": "1 to 2"})
    fact = depths_fact(observation, isolation)
    assert fact is not None and fact.hint is None and said in fact.says, fact
    assert "a correct one, those of depths 1 to 2 in full, then part of the next" in fact.says


def test_a_run_of_no_whole_depths_shows_no_depth_fact():
    from grader.harness.lesson import deepening
    from grader.harness.lesson.deepening_checks import depths_fact

    state, path = POSITIONS[0]
    calls = deepening.Tested({isolation.label(state): 7})  # the same position, over and over
    observation = Observation(state, path, (None, calls), False,
                              {"time_left() at the start": "40 ticks", "depths that fit": "1 to 2"})
    assert depths_fact(observation, isolation) is None


@pytest.mark.parametrize("moves", [
    "    moves = [1, 2, 3]\n",  # Nim's rules known by heart
    "    moves = list(range(1, min(3, game.coins + 1) + 1))\n",  # the pile read, one off
    "    moves = [take for take in (1, 2, 3) if take <= game.coins + 1]\n",
])
def test_a_move_the_game_does_not_offer_is_said_without_a_hint(moves):
    source = mutated(NEGAMAX, ("    moves = game.moves(player)\n", moves))
    student = inprocess.module(source)
    case = (nim.Nim(2), "A", 2)
    _, trace = inprocess.negamax(student, *case)
    fact = negamax_fact(case, trace)
    assert fact is not None and fact.hint is None, fact
    assert "does not offer there (it offers 1)" in fact.says and "game.move('B', " in fact.says


# -- a premise checked before it is said ------------------------------------------

def test_a_search_that_raised_is_told_as_the_crash_never_as_a_search_mistake():
    """Its walk ends at the root, as a cutoff with depth left would: the crash
    is what it did there, and no hint about a cutoff is given."""
    search = Search(game=isolation)
    start = isolation.GameState()
    fault = Raised("min_value", {"type": "AttributeError", "traceback": "",
                                 "message": "'GameState' object has no attribute 'legal_moves'"})
    trace = [("t", search.game.label(start))]
    fact = trace_fact(trace, start, lambda reference: reference.min_value(start), search,
                      crashed=fault)
    assert fact is not None and fact.hint is None
    assert "raised AttributeError" in fact.says and "fix that error first" in fact.says
    walked = trace_fact(trace, start, lambda reference: reference.min_value(start),
                        Search(game=isolation))
    assert walked is not None and walked.hint == "search_stops_early"  # the same walk, no crash


@pytest.mark.parametrize("budget, made, said", [
    (0, 6, "time_left() returned 0 from the start, below any TIMER_THRESHOLD; yet your search "
           "made 6 terminal tests"),
    (30, 33, "after the 30th it returned 0, below any TIMER_THRESHOLD; yet your search made 3 "
             "more terminal tests after that (33 in all)"),
])
def test_a_search_past_its_time_is_told_what_it_did_with_the_clock(budget, made, said):
    observation = Observation(isolation.GameState(), (), (None, Tested({"a": made})), False,
                              {"time_left() at the start": f"{budget} ticks"})
    fact = clock_fact(observation)
    assert fact is not None and fact.hint is None and said in fact.says
    assert "without raising SearchTimeout" in fact.says
