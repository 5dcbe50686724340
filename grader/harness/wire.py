"""How values cross from the student's worker to the supervisor.

The worker turns whatever the student's code returned into tagged plain data
(``encode``); the supervisor turns it back (``decode``) into values whose types
are exactly what the student returned. Nothing of the student's objects
survives the trip, so an object that "equals everything" arrives as a
:class:`Foreign` that equals nothing.
"""

import json
import types

MAX_ITEMS = 1000  # longer containers are cut (no correct answer is that long)
MAX_TEXT = 200
MAX_LINE = 1 << 20  # one message on the pipe, in bytes

CONTAINERS = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}


class BadMessage(Exception):
    """A message from the worker that is not what the protocol allows."""


def safe_repr(value):
    try:
        text = repr(value)
    except BaseException as exc:  # a student's __repr__ may raise anything
        text = f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"
    if not isinstance(text, str):
        text = f"<{type(value).__name__}>"
    return text[:MAX_TEXT]


def encode(value, depth=0):
    """Tagged plain data for ``value`` (runs in the worker)."""
    kind = type(value)
    if value is None or kind is int and abs(value) < 1 << 62:
        return value
    if kind is bool:
        return {"bool": value}
    if kind is float:
        return {"float": repr(value)}
    if kind is str:
        return {"str": value[:MAX_TEXT]}
    if kind in CONTAINERS and depth < 4:
        return {CONTAINERS[kind]: _items(value, depth)}
    if kind is types.GeneratorType and depth == 0:
        # Consumed here so that the grader can say what it would have given.
        return {"object": "generator", "repr": safe_repr(value), "items": _items(value, depth)}
    return {"object": kind.__name__[:MAX_TEXT], "repr": safe_repr(value)}


def _items(iterable, depth):
    items = []
    for item in iterable:
        if len(items) == MAX_ITEMS:
            break
        items.append(encode(item, depth + 1))
    return items


class Foreign:
    """A value of a type the grader does not accept; equal to nothing else.

    ``items`` holds what a generator yielded, for feedback.
    """

    def __init__(self, type_name, text, items=None):
        self.type_name = type_name
        self.text = text
        self.items = items

    def __repr__(self):
        return f"<{self.type_name} object: {self.text}>"

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


def decode(data):
    """The value that :func:`encode` described (runs in the supervisor)."""
    if data is None or type(data) is int:
        return data
    if type(data) is not dict or len(data) not in (1, 2, 3):
        raise BadMessage(f"unexpected value {data!r:.100}")
    (tag, body), *_ = data.items()
    if tag == "bool" and type(body) is bool:
        return body
    if tag == "float" and type(body) is str:
        return float(body)
    if tag == "str" and type(body) is str:
        return body
    if tag == "object":
        items = data.get("items")
        items = [decode(item) for item in items] if type(items) is list else None
        return Foreign(str(body), str(data.get("repr", "")), items)
    if tag in ("list", "tuple", "set", "frozenset") and type(body) is list:
        items = [decode(item) for item in body]
        if tag in ("set", "frozenset"):
            try:
                return set(items) if tag == "set" else frozenset(items)
            except TypeError:
                return Foreign(tag, repr(items)[:MAX_TEXT])
        return items if tag == "list" else tuple(items)
    raise BadMessage(f"unexpected value {data!r:.100}")


def describe(value, cap=300):
    """A value for feedback, naming its type where the type matters (capped)."""
    if isinstance(value, Foreign):
        text = f"an object of type {value.type_name} ({value.text})"
    elif type(value) in (list, tuple, set, frozenset):
        text = f"a {type(value).__name__} {value!r}"
    else:
        text = repr(value)
    return text if len(text) <= cap else text[:cap] + " [...]"


def dumps(message):
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def loads(line):
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadMessage(f"not JSON: {exc}") from None
    if type(message) is not dict:
        raise BadMessage("not a JSON object")
    return message
