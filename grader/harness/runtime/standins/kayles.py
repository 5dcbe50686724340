"""Kayles' stand-ins: the lesson's own (``standins.isolation``), on Kayles' rules.

Kayles keeps the lesson's GameState API, so the grader's terminal_test,
min_value and max_value are the lesson's. Only the trusted game differs: its
rules come over the pipe (``sources``), not from a provided file, so a game
needs no file of the course to be graded on.
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

__all__ = ["COUNTED", "arguments", "guarded", "owner", "stand_ins", "sources", "load"]

RULES = "grader.games.kayles.rules"


def sources(grant: Collection[str]) -> tuple[str, ...]:
    """The drawn trees' rules and Kayles' own, which no student writes."""
    return (TREE, RULES)


def load(provided: str, module_names: list[str], games: Mapping[str, types.ModuleType]
         ) -> types.ModuleType:
    """Kayles' rules, as the supervisor sent them."""
    keep_trees(games)
    return games[RULES]
