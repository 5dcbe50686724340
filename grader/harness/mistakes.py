"""The known mistakes: what each is called, how to explain it, how to spot it.

Diagnosis works by matching, as the CS188 autograder does: beside the trusted
reference there is a model of each mistake, and a failing test names the
mistake whose model gives the student's answers on the failing positions.
"""

import math

from grader.harness.flawed_game import ORTHOGONAL, FlawedGame
from grader.harness.isolation import DIRECTIONS
from grader.harness.search import Flaws

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
    "cutoff_before_terminal": "You test the depth cutoff before the terminal test. Test "
    "for a terminal state first: it is called at every node, and a finished game is worth "
    "+1 or -1 even at the cutoff.",
    "depth_not_decremented": "The depth never shrinks, so the search never stops early: "
    "pass depth - 1 to the children.",
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
    # the game
    "moves_not_list": "get_legal_moves must return a plain list of (x, y) tuples. Other "
    "collections (a set, a tuple, a generator) break code that indexes or re-reads them.",
    "forecast_mutates": "forecast_move changed the state it was called on. It must build a "
    "new state (copy.deepcopy(self) is the simple way) and leave self as it was; a shallow "
    "copy still shares the board.",
    "shared_class_board": "Every GameState shares one board: it is probably a class "
    "attribute. Create the board in __init__ (self._board = ...).",
    "forecast_returns_self": "forecast_move returned the very state it was called on. It "
    "must return a new object.",
    "blocked_cell_missing": "The lower-right cell (2, 1) is blocked from the start, so it is "
    "never a legal move.",
    "wrong_cell_blocked": "The wrong cell is blocked: the blocked one is (2, 1), column 2 "
    "and row 1 (the lower right).",
    "xy_swapped": "Your moves come out as (y, x). A move is (x, y): column first, then row.",
    "slides_through_closed": "A move slides through open cells only: a closed cell or the "
    "other player stops it, there is no jumping over them.",
    "no_diagonals": "Moves go like a chess queen: along the diagonals too, not only rows and "
    "columns.",
    "direction_missing": "One of the eight queen directions is missing.",
    "direction_doubled": "One direction is searched twice, so its moves come out twice.",
    "turn_not_handed_over": "After a move the other player is to move: flip _parity in "
    "forecast_move.",
    "one_step": "A move may slide any number of open cells, like a queen, not one step like "
    "a king.",
    # the files
    "syntax_error": "Python could not read the file: fix the syntax error first.",
    "import_crash": "Your file raised an error as it was imported, before any test ran.",
}

SEARCH_MODELS = [
    ("flipped_utilities", Flaws(flipped_utilities=True)),
    ("utility_for_player_to_move", Flaws(mover_utility=True)),
    ("recursion_swapped", Flaws(recursion_swapped=True)),
    ("aggregation_swapped", Flaws(aggregation_swapped=True)),
    ("aggregation_swapped", Flaws(aggregation_swapped=True, start_kept=True)),
    ("min_starts_at_zero", Flaws(min_from_zero=True)),
    ("max_starts_at_zero", Flaws(max_from_zero=True)),
    ("cutoff_before_terminal", Flaws(cutoff_first=True)),
    ("depth_not_decremented", Flaws(no_decrement=True)),
    ("root_off_by_one", Flaws(root_off_by_one=True)),
    ("cutoff_scored_as_terminal", Flaws(cutoff_as_terminal=True)),
    ("terminal_test_twice", Flaws(double_terminal_test=True)),
    ("argmin_decision", Flaws(argmin_decision=True)),
    ("decision_uses_max", Flaws(decision_uses_max=True)),
]

_CELLS = [(x, y) for x in range(3) for y in range(2) if (x, y) != (2, 1)]

GAME_MODELS = [
    ("blocked_cell_missing", FlawedGame(blocked=())),
    *[("wrong_cell_blocked", FlawedGame(blocked=(cell,))) for cell in _CELLS],
    ("xy_swapped", FlawedGame(swap_xy=True)),
    ("slides_through_closed", FlawedGame(through_closed=True)),
    ("no_diagonals", FlawedGame(directions=ORTHOGONAL)),
    *[
        ("direction_missing", FlawedGame(directions=tuple(d for d in DIRECTIONS if d != gone)))
        for gone in DIRECTIONS
    ],
    *[("direction_doubled", FlawedGame(directions=DIRECTIONS + (extra,))) for extra in DIRECTIONS],
    ("turn_not_handed_over", FlawedGame(hand_over=False)),
    ("one_step", FlawedGame(slide=False)),
]


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
