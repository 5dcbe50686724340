"""Nim and the games that share its protocol, for the negamax exercise.

``rules`` is Nim itself, handed to students as ``nim.py``; ``variants`` the
other games the student's search is also run on, with the grader's label and
score. A game is named for the wire by ``describe`` and made back by the
grader's kit in the student's process.
"""

from typing import Any

from grader.games.nim.rules import LOSING_VALUE, WINNING_VALUE, Nim
from grader.games.nim.variants import MisereNim, OwnPiles, kinds, label, score

__all__ = ["LOSING_VALUE", "WINNING_VALUE", "Nim", "MisereNim", "OwnPiles", "label", "score",
           "KINDS", "describe"]

KINDS = kinds(Nim)


def describe(game: Any) -> list[Any]:
    """A game as the kit's ``["game", kind, state, players, last]``."""
    kind = next(name for name, cls in KINDS.items() if type(game) is cls)
    state = list(game.piles) if kind == "piles" else game.coins
    return ["game", kind, state, list(game.players()), game.last]
