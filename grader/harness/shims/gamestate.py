"""The grader's trusted ``GameState``, importable as the lesson's ``gamestate``."""

from grader.harness.isolation import GameState  # noqa: F401
