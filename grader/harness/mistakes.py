"""The known mistakes: what each is called, how to explain it, how to spot it.

Diagnosis works by matching, as the CS188 autograder does: beside the trusted
reference there is a model of each mistake, and a failing test names the
mistake whose model gives the student's answers on the failing positions.
"""

import math

from dataclasses import replace

from grader.harness.search import PASTED_MAX, Flaws

HINTS = {
    # the search
    "flipped_utilities": "Your terminal values are the wrong way round. When min is stuck "
    "(a terminal state in min_value) the searching player has won: +1. When max is stuck "
    "(in max_value) it has lost: -1.",
    "utility_for_player_to_move": "You score a terminal state for the player who is stuck "
    "there. Utility is always seen from the searching (max) player: +1 in min_value, -1 in "
    "max_value.",
    "inverted_terminal_test": "terminal_test answers the opposite question: a state is "
    "terminal when the player to move has NO legal move left.",
    "recursion_swapped": "After min's move it is max's turn: min_value must score its "
    "children with max_value, and max_value with min_value. Yours calls itself.",
    "aggregation_swapped": "min_value must keep the smallest value of its children and "
    "max_value the largest; yours are the other way round.",
    "min_starts_at_zero": "min_value starts its running minimum at 0, so it can never "
    "report a win (+1). Start from float('inf').",
    "max_starts_at_zero": "max_value starts its running maximum at 0, so it can never "
    "report a loss (-1). Start from float('-inf').",
    "max_value_pasted": "Your max_value looks like a copy of min_value: it returns +1 at a "
    "terminal state and calls max_value, not min_value, for the children. max_value is "
    "min_value's mirror: -1 when max is stuck, else the largest min_value of the children.",
    "min_value_unfinished": "min_value returns None on a state that is not terminal: it "
    "must end by returning the smallest value it found (is the return after its loop "
    "missing?).",
    "max_value_unfinished": "max_value returns None on a state that is not terminal: it "
    "must end by returning the largest value it found (is the return after its loop "
    "missing?).",
    "cutoff_before_terminal": "You test the depth cutoff before the terminal test. Test "
    "for a terminal state first: it is called at every node, and a finished game is worth "
    "+1 or -1 even at the cutoff.",
    "depth_not_decremented": "The depth never shrinks, so the search never stops early: "
    "pass depth - 1 to the children.",
    "min_value_keeps_depth": "min_value passes its own depth to its children, so the "
    "search goes deeper than asked: call max_value(child, depth - 1).",
    "max_value_keeps_depth": "max_value passes its own depth to its children, so the "
    "search goes deeper than asked: call min_value(child, depth - 1).",
    "terminal_test_inline": "Your search checks for a finished game itself instead of "
    "calling terminal_test, so its calls can't be counted: call terminal_test(gameState) "
    "once at every node.",
    "root_off_by_one": "The search goes one level too deep: minimax_decision must score its "
    "children with min_value(child, depth - 1).",
    "cutoff_scored_as_terminal": "At the depth cutoff the game is not over: return 0 there, "
    "not +1 or -1.",
    "terminal_test_twice": "terminal_test is called more than once on the same state. Call "
    "it once per state and use its answer.",
    "argmin_decision": "Your decision picks the move with the lowest score, but the root is "
    "a max node: pick the highest.",
    "decision_uses_max": "The root's children are min nodes (the opponent moves next): score "
    "each child with min_value, not max_value.",
    "returns_score": "minimax_decision returned a number. Return the best move itself, an "
    "(x, y) tuple, not its score.",
    "stub": "Your function returned None everywhere: is it still the starter stub?",
    # the game: rules (each comes with what the model does, in the test's message)
    "blocked_cell_missing": "The lower-right cell (2, 1) is blocked from the start, so it is "
    "never a legal move.",
    "wrong_cell_blocked": "The wrong cell is blocked: the blocked one is (2, 1), column 2 "
    "and row 1 (the lower right).",
    "players_placed_at_start": "At the start both players are off the board "
    "(_player_locations is [None, None]): a player's first move may go to any open cell.",
    "xy_swapped": "Your moves come out as (y, x). A move is (x, y): column first, then row.",
    "location_read_as_yx": "A location is (x, y): column first, then row. Your code takes "
    "it apart the other way round before it slides.",
    "slides_through_closed": "A move slides through open cells only: a closed cell or the "
    "other player stops it, there is no jumping over them.",
    "no_diagonals": "Moves go like a chess queen: along the diagonals too, not only rows and "
    "columns.",
    "direction_missing": "One of the eight queen directions is missing.",
    "direction_doubled": "One direction is searched twice, so its moves come out twice.",
    "direction_replaced": "Your list of the eight queen directions has one direction twice "
    "and lacks another: check it for a typo.",
    "turn_not_handed_over": "After a move the other player is to move: flip _parity in "
    "forecast_move.",
    "one_step": "A move may slide any number of open cells, like a queen, not one step like "
    "a king.",
    # the game: forecast_move and the types (each named from what was observed)
    "moves_not_list": "get_legal_moves must return a plain list. Other collections (a set, "
    "a tuple, a generator) break code that indexes or re-reads them.",
    "move_not_tuple": "A move is a tuple (x, y), not a list [x, y]: lists can't be put in a "
    "set or used as dictionary keys, and (0, 1) == [0, 1] is False.",
    "forecast_returns_self": "forecast_move returned the very state it was called on. It "
    "must return a new object.",
    "forecast_not_a_state": "forecast_move must return the new GameState; yours returned "
    "something else (see which call above).",
    "forecast_mutates": "forecast_move changed the state it was called on. It must build a "
    "new state and leave self as it was (copy.deepcopy(self), then change the copy).",
    "shallow_copy": "forecast_move's new state shares its board (or its list of locations) "
    "with the state it came from: a shallow copy, so playing on the new state changes the "
    "old one. Copy with copy.deepcopy(self).",
    "shared_class_board": "Every GameState shares one board: playing on one state changed "
    "a fresh GameState(). The board is probably a class attribute: create it in __init__ "
    "(self._board = ...).",
    # the files
    "syntax_error": "Python could not read the file: fix the syntax error first.",
    "import_crash": "Your file raised an error as it was imported, before any test ran.",
    "changed_grader": "Your code reached into the grader's own code or objects (its functions, "
    "its kept states, its channel, or the garbage collector, ctypes, trace functions or "
    "process memory that would reach them). Test your own functions only.",
}

_ONE = ("min_value", "max_value")
# What min_value and max_value return at the cutoff, when it is not 0.
_CUTOFFS = [(low, high) for low in (-1, 0, 1) for high in (-1, 0, 1) if low or high]

SEARCH_MODELS = [
    ("flipped_utilities", Flaws(flipped_utilities=True)),
    ("utility_for_player_to_move", Flaws(mover_utility=True)),
    ("recursion_swapped", Flaws(recursion_swapped=True)),
    ("aggregation_swapped", Flaws(aggregation_swapped=True)),
    ("aggregation_swapped", Flaws(aggregation_swapped=True, start_kept=True)),
    ("min_starts_at_zero", Flaws(min_from_zero=True)),
    ("max_starts_at_zero", Flaws(max_from_zero=True)),
    ("max_value_pasted", PASTED_MAX),
    *[(f"{name}_unfinished", Flaws(only=name, unfinished=True, loop_missing=missing))
      for name in _ONE for missing in (False, True)],
    ("cutoff_before_terminal", Flaws(cutoff_first=True)),
    ("depth_not_decremented", Flaws(no_decrement=True)),
    *[(f"{name}_keeps_depth", Flaws(only=name, no_decrement=True)) for name in _ONE],
    ("root_off_by_one", Flaws(root_off_by_one=True)),
    *[("cutoff_scored_as_terminal", Flaws(cutoff_min=low, cutoff_max=high))
      for low, high in _CUTOFFS],
    *[("terminal_test_inline", Flaws(only=name, inline_terminal=True)) for name in (None, *_ONE)],
    ("terminal_test_twice", Flaws(double_terminal_test=True)),
    ("argmin_decision", Flaws(argmin_decision=True)),
    ("decision_uses_max", Flaws(decision_uses_max=True)),
]


def _alone(flaws, function):
    """``flaws`` in ``function`` alone; in min_value, scoring a terminal state for
    the stuck player is the same code as flipped utilities: one model, one name."""
    flaws = replace(flaws, only=function)
    if function == "min_value" and flaws.mover_utility:
        return replace(flaws, mover_utility=False, flipped_utilities=True)
    return flaws


def models_for(function: str) -> list:
    """The search models of ``function`` ("min_value" or "max_value") alone, the
    other function being the grader's: each mistake that can be made there,
    under the first name of those that behave alike."""
    kept = {}
    for mistake, flaws in SEARCH_MODELS:
        if flaws.only in (None, function):
            kept.setdefault(_alone(flaws, function), mistake)
    return [(mistake, flaws) for flaws, mistake in kept.items()]


def _spread(items, count):
    """Up to ``count`` items, evenly spread over ``items``."""
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def _odds(model, likelihood, chosen):
    """The model's likelihood of each chosen answer; empty as soon as one is
    impossible (the wrong answers come first: most models fail on one, and
    some models search far)."""
    odds = []
    for observation in chosen:
        odds.append(likelihood(model, observation))
        if odds[-1] <= 0:
            return []
    return odds


def diagnose(models, likelihood, observations, baseline=None, sample=24, most=2):
    """The mistakes whose models best explain the student's answers.

    ``likelihood(model, observation)`` is the chance that the model, in the
    student's place, gives the student's answer: 1 or 0 for a value, 1/k
    when the model finds k moves equally good and the student's is one of
    them. A model is a candidate when it explains every sampled answer, the
    wrong ones and a spread of the right ones; candidates are ranked by their
    joint likelihood, which must beat ``baseline(observation)`` (a player
    choosing at random) where one is given. The best is named, with a second
    only when it fits exactly as well; more ties than ``most`` name nothing.
    """
    chosen = _spread([o for o in observations if not o.ok], sample)
    chosen += _spread([o for o in observations if o.ok], sample)
    floor = sum(math.log(baseline(o)) for o in chosen) if baseline else -math.inf
    scores = {}
    for mistake, model in models:
        odds = _odds(model, likelihood, chosen)
        if odds:
            score = sum(math.log(p) for p in odds)
            if score > floor + 1e-9 and score > scores.get(mistake, -math.inf):
                scores[mistake] = score
    if not scores:
        return []
    top = max(scores.values())
    best = [m for m, score in scores.items() if score >= top - 1e-9]
    return best if len(best) <= most else []
