"""The stand-ins of every game of the lesson's kind but mini-isolation (Kayles,
an instructor's own): the lesson's own (``standins.isolation``), on the
game's rules.

Such a game keeps the lesson's GameState API, so the grader's terminal_test,
min_value and max_value are the lesson's. Only the trusted game differs: its
rules, ``grader.games.<game>.rules``, come over the pipe (``sources``), not
from a provided file, so a game needs no file of the course to be graded on,
and no kit of its own.
"""

from __future__ import annotations

import types
from collections.abc import Collection, Mapping

from grader.harness.runtime.standins.isolation import (
    COUNTED,
    TREE,
    arguments,
    guarded,
    keep_trees,
    owner,
    stand_ins,
)


def kit(game: str) -> types.ModuleType:
    """The kit of ``game``: the lesson's stand-ins, and its rules to send."""
    made = types.ModuleType(f"{__name__}.{game}", __doc__)
    rules = f"grader.games.{game}.rules"

    def sources(grant: Collection[str]) -> tuple[str, ...]:
        """The drawn trees' rules and the game's own, which no student writes."""
        return (TREE, rules)

    vars(made).update(COUNTED=COUNTED, arguments=arguments, guarded=guarded, owner=owner,
                      stand_ins=stand_ins, sources=sources, load=load)
    return made


def load(provided: str, module_names: list[str], games: Mapping[str, types.ModuleType]
         ) -> types.ModuleType:
    """The game's rules, as the supervisor sent them (beside the drawn trees')."""
    keep_trees(games)
    [rules] = (module for name, module in games.items() if name != TREE)
    return rules
