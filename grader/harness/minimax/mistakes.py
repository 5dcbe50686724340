"""The known mistakes: what each is called, how to explain it, how to spot it.

Diagnosis works by matching, as the CS188 autograder does: beside the trusted
reference there is a model of each mistake, and a failing test names the
mistake whose model gives the student's answers on the failing positions.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from grader.harness.minimax.checks import Observation
from grader.harness.minimax.search import PASTED_MAX, Flaws

Model = TypeVar("Model")  # a model of a mistake: a search's Flaws, a flawed game
# ``likelihood(model, observation)``: see ``diagnose``.
Likelihood = Callable[[Model, Observation], float]

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


def _alone(flaws: Flaws, function: str) -> Flaws:
    """``flaws`` in ``function`` alone; in min_value, scoring a terminal state for
    the stuck player is the same code as flipped utilities: one model, one name."""
    flaws = replace(flaws, only=function)
    if function == "min_value" and flaws.mover_utility:
        return replace(flaws, mover_utility=False, flipped_utilities=True)
    return flaws


def models_for(function: str) -> list[tuple[str, Flaws]]:
    """The search models of ``function`` ("min_value" or "max_value") alone, the
    other function being the grader's: each mistake that can be made there,
    under the first name of those that behave alike."""
    kept: dict[Flaws, str] = {}
    for mistake, flaws in SEARCH_MODELS:
        if flaws.only in (None, function):
            kept.setdefault(_alone(flaws, function), mistake)
    return [(mistake, flaws) for flaws, mistake in kept.items()]


def _spread(items: list[Observation], count: int) -> list[Observation]:
    """Up to ``count`` items, evenly spread over ``items``."""
    if len(items) <= count:
        return items
    return [items[i * len(items) // count] for i in range(count)]


def _odds(model: Model, likelihood: Likelihood[Model], chosen: Iterable[Observation]
          ) -> list[float]:
    """The model's likelihood of each chosen answer; empty as soon as one is
    impossible (the wrong answers come first: most models fail on one, and
    some models search far)."""
    odds: list[float] = []
    for observation in chosen:
        odds.append(likelihood(model, observation))
        if odds[-1] <= 0:
            return []
    return odds


def diagnose(models: Iterable[tuple[str, Model]], likelihood: Likelihood[Model],
             observations: Sequence[Observation],
             baseline: Callable[[Observation], float] | None = None, sample: int = 24,
             most: int = 2) -> list[str]:
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
    scores: dict[str, float] = {}
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
