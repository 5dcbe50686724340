"""Hostile: values that equal everything."""


class Everything(int):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__

    @property
    def __class__(self):
        return int


class Either:
    def __eq__(self, other):
        return True

    def __bool__(self):
        return True

    __hash__ = object.__hash__


def terminal_test(gameState):
    return Either()


def min_value(gameState):
    return Everything(0)


def max_value(gameState):
    return Everything(0)
