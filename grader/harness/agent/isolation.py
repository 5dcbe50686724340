"""``isolation``, as an agent's modules import it: the ``Board`` of the well-known
knight's-isolation course project, which is the board the agent is given."""

from grader.games.knights.rules import Board

__all__ = ["Board"]
