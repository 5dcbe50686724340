"""How values cross from the student's worker to the supervisor.

The worker turns whatever the student's code returned into tagged plain data
(``encode``); the supervisor turns it back (``decode``) into values whose types
are exactly what the student returned. Nothing of the student's objects
survives the trip, so an object that "equals everything" arrives as a
:class:`Foreign` that equals nothing.
"""

import collections
import json
import types
from collections.abc import Iterable, Mapping

MAX_ITEMS = 1000  # longer containers are cut (no correct answer is that long)
MAX_TEXT = 200
MAX_LINE = 1 << 20  # one message on the pipe, in bytes

CONTAINERS: dict[type, str] = {list: "list", tuple: "tuple", set: "set", frozenset: "frozenset"}
MAX_DEPTH = 4  # containers nest no deeper in any answer the grader reads
INT_BOUND = 1 << 62  # larger ints are sent as objects (their text)
# Values in one answer, in all: a list of a thousand moves is 3,001 of them.
MAX_NODES = 10 * MAX_ITEMS

# Lines the worker sends between replies, as things happen in the student's
# call (the supervisor tallies them; no count is kept in the worker):
TESTED = b"t "  # the grader's terminal_test was called: then the position's label
ENTERED = b"e "  # a stand-in of the grader's search was entered: then the position's label
ALARM = b"x "  # the guard refused the student's code something: then what


class Tested(collections.Counter[str]):
    """The positions ``terminal_test`` was called on (labels), with how often.

    Compared as a multiset, so that the right number of calls on the wrong
    positions is no right count; shown as the number of calls."""

    def __str__(self) -> str:
        return str(self.total())


class BadMessage(Exception):
    """A message from the worker that is not what the protocol allows."""


def safe_repr(value: object) -> str:
    try:
        text = repr(value)
    except BaseException as exc:  # a student's __repr__ may raise anything
        text = f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"
    if not isinstance(text, str):
        text = f"<{type(value).__name__}>"
    return text[:MAX_TEXT]


def encode(value: object) -> object:
    """Tagged plain data for ``value`` (runs in the worker): containers cut at
    MAX_ITEMS items, and the whole at MAX_NODES values."""
    return _encode(value, 0, [MAX_NODES])


def _encode(value: object, depth: int, budget: list[int]) -> object:
    budget[0] -= 1
    kind = type(value)
    if value is None or type(value) is int and abs(value) < INT_BOUND:
        return value
    if kind is bool:
        return {"bool": value}
    if kind is float:
        return {"float": repr(value)}
    if type(value) is str:
        return {"str": value[:MAX_TEXT]}
    if kind in CONTAINERS and depth < MAX_DEPTH and isinstance(
            value, (list, tuple, set, frozenset)):  # as ``kind`` is: for the type checker
        return {CONTAINERS[kind]: _items(value, depth, budget)}
    if type(value) is types.GeneratorType and depth == 0:
        # Consumed here so that the grader can say what it would have given.
        return {"object": "generator", "repr": safe_repr(value),
                "items": _items(value, depth, budget)}
    return {"object": kind.__name__[:MAX_TEXT], "repr": safe_repr(value)}


def _items(iterable: Iterable[object], depth: int, budget: list[int]) -> list[object]:
    items: list[object] = []
    for item in iterable:
        if len(items) == MAX_ITEMS or budget[0] <= 0:
            break
        items.append(_encode(item, depth + 1, budget))
    return items


class Foreign:
    """A value of a type the grader does not accept; equal to nothing else.

    ``items`` holds what a generator yielded, for feedback.
    """

    def __init__(self, type_name: str, text: str, items: list[object] | None = None) -> None:
        self.type_name = type_name
        self.text = text
        self.items = items

    def __repr__(self) -> str:
        return f"<{self.type_name} object: {self.text}>"

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__


def decode(data: object) -> object:
    """The value that :func:`encode` described (runs in the supervisor).

    Its work is bounded by what ``encode`` can send, whatever the message holds:
    no container longer than MAX_ITEMS, no deeper than MAX_DEPTH, no int as
    large as 2**62 (larger ones travel as objects), MAX_NODES values in all, all
    checked before any set is built. A forged message can't make it slow: with
    ints that small, few can share a hash (a set of a million that all hash
    alike costs minutes to build), and a set's items are few and small.
    """
    return _decode(data, 0, [MAX_NODES])


def _decode(data: object, depth: int, budget: list[int]) -> object:
    """``decode`` within ``budget`` (a one-item list: the values still allowed)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise BadMessage(f"more than {MAX_NODES} values in one answer")
    if depth > MAX_DEPTH + 1:
        raise BadMessage("a value nested deeper than any answer")
    if data is None or type(data) is int:
        if data is not None and abs(data) >= INT_BOUND:
            raise BadMessage("an int larger than any answer sends plainly")
        return data
    if type(data) is not dict or len(data) not in (1, 2, 3):
        raise BadMessage(f"unexpected value {data!r:.100}")
    (tag, body), *_ = data.items()
    if tag == "bool" and type(body) is bool:
        return body
    if tag == "float" and type(body) is str and len(body) <= MAX_TEXT:
        try:
            return float(body)
        except ValueError:
            raise BadMessage(f"not a float: {body!r:.100}") from None
    if tag == "str" and type(body) is str:
        return body[:MAX_TEXT]
    if tag == "object":
        items = data.get("items")
        items = _items_of(items, depth, budget) if type(items) is list else None
        return Foreign(str(body)[:MAX_TEXT], str(data.get("repr", ""))[:MAX_TEXT], items)
    if tag in ("list", "tuple", "set", "frozenset") and type(body) is list:
        items = _items_of(body, depth, budget)
        if tag in ("set", "frozenset"):
            try:
                return set(items) if tag == "set" else frozenset(items)
            except TypeError:
                return Foreign(tag, repr(items)[:MAX_TEXT])
        return items if tag == "list" else tuple(items)
    raise BadMessage(f"unexpected value {data!r:.100}")


def _items_of(body: list[object], depth: int, budget: list[int]) -> list[object]:
    if len(body) > MAX_ITEMS:
        raise BadMessage(f"a container of {len(body):,} items: the worker sends {MAX_ITEMS} "
                         "at most")
    return [_decode(item, depth + 1, budget) for item in body]


def describe(value: object, cap: int = 300) -> str:
    """A value for feedback, naming its type where the type matters (capped)."""
    if isinstance(value, Foreign):
        text = f"an object of type {value.type_name} ({value.text})"
    elif type(value) in (list, tuple, set, frozenset):
        text = f"a {type(value).__name__} {value!r}"
    else:
        text = repr(value)
    return text if len(text) <= cap else text[:cap] + " [...]"


def dumps(message: Mapping[str, object]) -> bytes:
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def loads(line: str | bytes | bytearray) -> dict[str, object]:
    try:
        message: object = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BadMessage(f"not JSON: {type(exc).__name__}") from None
    if type(message) is not dict:
        raise BadMessage("not a JSON object")
    return message
