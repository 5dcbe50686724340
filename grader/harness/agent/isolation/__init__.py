"""``isolation``, as an agent's modules import it: the course project's package,
whose ``Board`` (knight's isolation) is the board the agent is given. Both of
its import paths work: ``from isolation import Board`` and
``from isolation.isolation import Board``."""

from grader.harness.agent.isolation.isolation import Board

__all__ = ["Board"]
