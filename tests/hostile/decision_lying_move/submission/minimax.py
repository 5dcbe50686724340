"""Hostile: a 'move' that equals every move."""

from minimax_helpers import *  # noqa: F401,F403


class Move(tuple):
    def __new__(cls):
        return super().__new__(cls, (0, 0))

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return hash((0, 0))

    def __contains__(self, item):
        return True

    @property
    def __class__(self):
        return tuple


def minimax_decision(gameState):
    return Move()
