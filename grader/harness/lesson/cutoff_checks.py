"""The depth cutoff of a depth-limited search, on any game of the lesson's kind.

``min_value`` and ``max_value`` called with depth 0 on a position that is not
over must return 0; the mistakes of the cutoff (a cutoff scored as a loss,
tested before the end of the game, ...) are named by their models. Plain
depth-limited minimax is called as ``name(state, 0)``, the grader's own other
function standing in; alpha-beta as ``name(state, -inf, inf, 0)``.
"""

import math
from collections.abc import Sequence
from typing import Any

from grader.games import Path, State
from grader.harness.checking import checks, mistakes
from grader.harness.checking.checks import Observation
from grader.harness.checking.facts import Fact
from grader.harness.checking.probes import SearchProbe
from grader.harness.lesson.alphabeta import AlphaBeta
from grader.harness.lesson.search import Search
from grader.harness.lesson.search_facts import smallest_facts, traced_fact

OTHER = {"min_value": "max_value", "max_value": "min_value"}
WINDOW = (-math.inf, math.inf)
Positions = Sequence[tuple[State, Path]]


def check_cutoff(probe: SearchProbe, name: str, positions: Positions, alpha_beta: bool = False
                 ) -> None:
    """``name`` returns 0 at depth 0 on every position (none of them over)."""
    game = probe.game
    window = WINDOW if alpha_beta else ()
    trusted = () if alpha_beta else [OTHER[name]]
    observations = checks.collect(
        positions, probe.values(name, positions, *window, 0, trusted=trusted),
        lambda s, value: type(value) in (int, float) and value == 0,
        lambda s: "0 (the cutoff, on a position that is not terminal)")

    def reproduces(flaws: Any, observation: Observation) -> bool:  # the models' kind
        model = AlphaBeta(flaws, game) if alpha_beta else Search(flaws, game)
        return not checks.raised(observation) and observation.answer == \
            model.outcome(name, observation.state, *window, 0)

    models = ([(m, f) for m, f in mistakes.ALPHA_BETA_MODELS if f.only in (None, name)]
              if alpha_beta else mistakes.models_for(name))
    def fact(case: Observation, origin: str) -> Fact | None:
        return traced_fact(probe, name, case.state, (*window, 0),
                           lambda search: getattr(search, name)(case.state, *window, 0),
                           AlphaBeta(None, game) if alpha_beta else Search(None, game), trusted,
                           origin)

    checks.verdict(f"{name}(state, {'-inf, inf, ' if alpha_beta else ''}0)", observations,
                   lambda found: mistakes.diagnose(models, reproduces, found), draw=game.draw,
                   facts=lambda found: smallest_facts(found, fact))
