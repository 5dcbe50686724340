"""Odd answers for the fuzz test of tests/test_total_checks.py.

This file's text goes into a submission, after the reference solution's:
``oddify(namespace, names, recipes)`` then makes each named function (or
``Class.method``) of the reference return an odd value built from its real
one, at every call that comes from outside the student's code (the grader's
own calls; those the reference makes itself keep their real values).
``recipes`` are plain data, drawn by the test; the n-th outside call uses
the n-th recipe, in a cycle. Every odd value is wrong wherever it is judged:
no plain bool, int, str or None, no integral float, no tuple turned list where a list is
taken for one (``as_list`` is drawn only where it is not).
"""

import functools


class Hostile:
    """Equal to everything, and fails at anything else it is asked."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        raise TypeError("no hash")

    def __repr__(self):
        raise RuntimeError("no repr")

    def __len__(self):
        raise RuntimeError("no len")

    def __iter__(self):
        raise RuntimeError("no iter")

    def __bool__(self):
        raise RuntimeError("no bool")


class Pair(tuple):
    """A tuple that claims to equal everything."""

    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


class Number(int):
    """An int that claims to equal everything."""

    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def _looped():
    found = []
    found.append(found)
    return found


ATOMS = {
    "nan": lambda: float("nan"),
    "inf": lambda: float("inf"),
    "half": lambda: 0.5,
    "huge": lambda: 1 << 70,
    "giant": lambda: 10 ** 5000,  # its repr raises
    "complex": lambda: 1j,
    "bytes": lambda: b"(0, 0)",
    "dict": lambda: {"move": (0, 0)},
    "hostile": Hostile,
    "pair": lambda: Pair((0, 0)),
    "number": lambda: Number(1),
    "looped": _looped,
    "long_list": lambda: list(range(100_000)),
    "long_text": lambda: "X" * 1_000_000,
}


def _wrapped(kind, value):
    if kind == "as_list":  # (x, y) as [x, y]: where the exercise takes no list for a tuple
        return list(value) if type(value) is tuple else [value]
    if kind == "list":
        return [value]
    if kind == "one_tuple":
        return (value,)
    if kind == "set":
        try:
            return {value}
        except TypeError:  # unhashable: a frozenset of its text, then
            return frozenset([repr(value)])
    if kind == "dict":
        return {0: value}
    if kind == "nested":
        for _ in range(8):
            value = [value]
        return value
    return ATOMS[kind]()


def odd(value, recipe):
    """``value`` made odd by ``recipe``: ("atom", name), ("wrap", kind) or
    ("part", index, kind) (one item of a tuple or list replaced)."""
    if recipe[0] == "atom":
        return ATOMS[recipe[1]]()
    if recipe[0] == "part" and type(value) in (tuple, list) and value:
        items = list(value)
        at = recipe[1] % len(items)
        items[at] = _wrapped(recipe[2], items[at])
        return type(value)(items)
    return _wrapped(recipe[-1], value)


def oddify(namespace, names, recipes):
    state = {"depth": 0, "calls": 0}

    def make_odd(function):
        @functools.wraps(function)
        def odd_function(*args, **kwargs):
            outside = state["depth"] == 0
            state["depth"] += 1
            try:
                value = function(*args, **kwargs)
            finally:
                state["depth"] -= 1
            if not outside:
                return value
            state["calls"] += 1
            return odd(value, recipes[(state["calls"] - 1) % len(recipes)])
        return odd_function

    for name in names:
        owner, _, method = name.rpartition(".")
        if owner:
            cls = namespace[owner]
            setattr(cls, method, make_odd(getattr(cls, method)))
        else:
            namespace[name] = make_odd(namespace[name])
