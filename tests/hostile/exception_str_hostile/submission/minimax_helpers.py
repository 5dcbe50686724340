"""Hostile: reprs and strs that raise, explode or never end."""


class Weird:
    def __repr__(self):
        raise SystemExit("repr says: 10/10")

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class Loud(Exception):
    def __str__(self):
        return "A" * (10 << 20)

    def __repr__(self):
        raise RuntimeError("no repr")


class Hang:
    def __repr__(self):
        while True:
            pass


def terminal_test(gameState):
    return Weird()


def min_value(gameState):
    raise Loud()


def max_value(gameState):
    return Hang()
