"""The steps the supervisor sends the worker (plain data, see ``call_step``), and
how a step's call reads in a student's words."""

from collections.abc import Iterable, Sequence
from typing import Any

from grader.contracts import protocol

# A step (``call_step``, ``inspect_step``) and the worker's reply to it: plain
# data, and the reply untrusted (nothing in it is sure to have its keys or types).
Step = dict[str, Any]
Reply = dict[str, Any]
# Where a step finds the object it calls on: ("module", name), ("handle", number)
# or ("step", index).
Target = tuple[str, str | int]



def call_step(target: Target, name: str, *args: object, count_in: str | None = None,
              keep: bool = False, trusted: Iterable[str] = (), depth_limited: bool = False,
              most: int | None = None, setup: dict[str, object] | None = None,
              read: Iterable[str] = (), root: str | None = None, make: str | None = None,
              trace: bool = False) -> Step:
    """A step that calls ``name`` on ``target``: ("module", name), a kept object
    ("handle", number) or the value of an earlier step of the chain ("step", index);
    with ``make``, on a new object of ``target``'s class of that name, made
    without arguments for this call alone (a chain of the two calls in one step).

    During the call the module ``count_in`` gets its game's counting stand-ins
    (terminal_test; is_end on its Game class) and, for the functions named in
    ``trusted`` ("min_value", "max", ...), the grader's own, taking a depth
    when ``depth_limited`` (see ``standins``).
    A call that makes more than ``most`` counted calls is stopped there
    (``TooManyCalls``): a search far larger than the reference's need not
    run to its time limit. For the lab's kind of object, whose state is in
    its attributes, ``setup`` (name -> value; ``{"trusted": data}`` is made by
    the game's kit) sets them on the target first, and the reply's ``read``
    holds the attributes named in ``read``, once the call returned. ``root``
    is the label of the position the call starts from: the ``trusted``
    stand-ins must be entered only on positions that follow from it. A step
    to ``trace`` has its tallies kept in the order they came, as the reply's
    ``trace``: what the facts of a failing case are read from."""
    trusted = list(trusted)
    assert name not in trusted, "a function never runs with the grader's own in its place"
    return {"op": "call", "target": list(target), "name": name, "args": list(args),
            "count_in": count_in, "keep": keep, "trusted": trusted,
            "depth_limited": depth_limited, "most": most, "setup": setup or {},
            "read": list(read), "root": root, "make": make, "trace": trace}


def grant(chains: Iterable[Sequence[Step]]) -> frozenset[str]:
    """The stand-ins a request's steps use ("counted" for the counting ones):
    what its worker may hold. None of them may be a function that the request
    calls, or the student's code could call the grader's version instead."""
    granted: set[str] = set()
    called: set[str] = set()
    for chain in chains:
        for step in chain:
            if step["op"] != "call":
                continue
            called.update(name for name in (step["name"], step.get("make")) if name)
            if step.get("count_in"):
                granted.update(["counted", *step["trusted"]])
            # an OutOfTurn ends its chain here, where the worker goes on
            assert step.get("root") is None or step is chain[-1], "a rooted call ends its chain"
    assert not granted & called, f"{sorted(granted & called)} both tested and stood in for"
    return frozenset(granted)


def inspect_step(op: str, a: Target, b: Target) -> Step:
    """A step that compares two objects (targets as above): "shares" (the
    paths of their common mutable parts)."""
    return {"op": op, "a": list(a), "b": list(b)}


def step_doing(step: Step) -> str:
    return f"running {step['name']}" if step["op"] == "call" else "inspecting states"


def is_position(data: object) -> bool:
    """Whether a trusted argument is a game position (the clock of iterative
    deepening is the other kind)."""
    return type(data) is not dict or "clock" not in data


def returned(step: Step, value: object) -> str:
    return f"{call_text(step)} returned {protocol.describe(value, 100)}"


def trusted_text(data: object) -> str:
    """How the student names an object the grader made: data tagged with
    its kind (negamax's ["game", ...], ["score"]) by its kind, a clock
    time_left, any other a state."""
    if type(data) is list and data and type(data[0]) is str:
        return data[0]
    return "state" if is_position(data) else "time_left"


def strings(value: object) -> bool:
    return type(value) is list and all(type(item) is str for item in value)


def call_text(step: Step) -> str:
    """A step's call as the student would write it: forecast_move((0, 1))."""
    def arg(value: object) -> str:
        if type(value) is dict and "tuple" in value:
            return repr(tuple(value["tuple"]))
        if type(value) is dict:
            return trusted_text(value.get("trusted"))
        return repr(value)

    return f"{step['name']}({', '.join(arg(a) for a in step.get('args', []))})"


