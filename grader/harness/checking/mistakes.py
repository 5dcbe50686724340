"""The known mistakes: what each is called, how to explain it, how to spot it.

Diagnosis works by matching, as the CS188 autograder does: beside the trusted
reference there is a model of each mistake, and a failing test names the
mistake whose model gives the student's answers on the failing positions.
"""

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, replace
from typing import TypeVar

from grader.harness.checking.checks import Observation
from grader.harness.lesson.alphabeta import AlphaFlaws
from grader.harness.lesson.search import PASTED_MAX, Flaws

Model = TypeVar("Model")  # a model of a mistake: a search's Flaws, a flawed game
# ``likelihood(model, observation)``: see ``diagnose``.
Likelihood = Callable[[Model, Observation], float]

_ONE = ("min_value", "max_value")
# What min_value and max_value return at the cutoff, when it is not 0.
_CUTOFFS = [(low, high) for low in (-1, 0, 1) for high in (-1, 0, 1) if low or high]

SEARCH_MODELS = [
    ("flipped_utilities", Flaws(flipped_utilities=True)),
    ("utility_for_player_to_move", Flaws(mover_utility=True)),
    *[("terminal_value_by_turn", Flaws(fixed_player=player)) for player in (0, 1)],
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
    *[("terminal_test_twice", Flaws(only=name, double_terminal_test=True))
      for name in (None, *_ONE)],
    *[("terminal_test_twice", Flaws(only=name, recheck_terminal=True)) for name in (None, *_ONE)],
    ("argmin_decision", Flaws(argmin_decision=True)),
    ("decision_uses_max", Flaws(decision_uses_max=True)),
]

# The mistakes of minimax that alpha-beta can make as well (its own model has
# no aggregation or recursion flaws: those break a search before its window).
_SHARED = ("flipped_utilities", "utility_for_player_to_move", "terminal_value_by_turn",
           "min_value_unfinished",
           "max_value_unfinished", "cutoff_before_terminal", "depth_not_decremented",
           "min_value_keeps_depth", "max_value_keeps_depth", "root_off_by_one",
           "cutoff_scored_as_terminal", "terminal_test_inline", "terminal_test_twice")
_EACH = (None, *_ONE)  # both functions, or one of them

ALPHA_BETA_MODELS = [
    *[("prune_strict_bound", AlphaFlaws(only=name, prune_test="strict")) for name in _EACH],
    ("never_prunes", AlphaFlaws(prune_test="never")),
    # (a max_value that never prunes makes, on this game, the counts of a window
    # reset or a beta never lowered: no model of its own, which could not be told apart)
    ("min_value_never_prunes", AlphaFlaws(only="min_value", prune_test="never")),
    *[("window_reset", AlphaFlaws(only=name, window_not_passed=True)) for name in _EACH],
    *[("bound_updated_wrong", AlphaFlaws(only=name, update=update))
      for update in ("none", "crossed") for name in _EACH],
    *[("bounds_compared_wrong", AlphaFlaws(only=name, prune_test=test))
      for test in ("other_bound", "reversed") for name in _EACH],
    ("root_alpha_not_updated", AlphaFlaws(root_alpha_fixed=True)),
    ("root_takes_later_tie", AlphaFlaws(root_keeps_last=True)),
    *[(mistake, AlphaFlaws(**asdict(flaws))) for mistake, flaws in SEARCH_MODELS
      if mistake in _SHARED],
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


class Story:
    """The mistakes a report has named so far: a grading run is one process,
    and its tests are diagnosed in turn. Where a mistake told before explains
    a later test's answers, that test tells it again, in the same words,
    rather than a rival that happens to fit as well there."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def tell(self, names: list[str]) -> list[str]:
        self.told += [name for name in names if name not in self.told]
        return names


STORY = Story()


def diagnose(models: Iterable[tuple[str, Model]], likelihood: Likelihood[Model],
             observations: Sequence[Observation],
             baseline: Callable[[Observation], float] | None = None, sample: int = 24,
             most: int = 2, story: Story = STORY) -> list[str]:
    """The mistakes whose models best explain the student's answers.

    ``likelihood(model, observation)`` is the chance that the model, in the
    student's place, gives the student's answer: 1 or 0 for a value, 1/k
    when the model finds k moves equally good and the student's is one of
    them. A model is a candidate when it explains every sampled answer, the
    wrong ones and a spread of the right ones; candidates are ranked by their
    joint likelihood, which must beat ``baseline(observation)`` (a player
    choosing at random) where one is given. The best is named, with a second
    only when it fits exactly as well; more ties than ``most`` name nothing.
    The names found on the sample are confirmed on a ten times wider one (all
    the answers, where there are few): a model that agrees on a few positions
    may not on the rest, and a hint it gave would be wrong. The mistakes
    the report has told already (``story``) are tried first.
    """
    models = list(models)
    wrong = [o for o in observations if not o.ok]
    right = [o for o in observations if o.ok]
    narrow = _spread(wrong, sample) + _spread(right, sample)
    wide = _spread(wrong, 10 * sample) + _spread(right, 10 * sample)
    told = [(mistake, model) for mistake, model in models if mistake in story.told]
    for candidates in (told, models) if told else (models,):
        best = _confirmed(candidates, likelihood, narrow, wide, baseline)
        if best and len(best) <= most:
            return story.tell(best)
    return []


def _confirmed(models: list[tuple[str, Model]], likelihood: Likelihood[Model],
               narrow: list[Observation], wide: list[Observation],
               baseline: Callable[[Observation], float] | None) -> list[str]:
    """The best fits on ``narrow`` that still fit best on ``wide``."""
    best = _best_fits(models, likelihood, narrow, baseline)
    if not best:
        return []
    return _best_fits([(m, model) for m, model in models if m in best], likelihood, wide,
                      baseline)


def _best_fits(models: Iterable[tuple[str, Model]], likelihood: Likelihood[Model],
               chosen: list[Observation],
               baseline: Callable[[Observation], float] | None) -> list[str]:
    """The mistakes whose likeliest model explains all of ``chosen`` best."""
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
    return [m for m, score in scores.items() if score >= top - 1e-9]
