"""``isolation.isolation``: the module of the course project's package that
holds ``Board``."""

from grader.games.knights.rules import Board

__all__ = ["Board"]
