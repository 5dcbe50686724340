"""Reading a worker's answer is bounded: a forged reply can't make the judge's
decoder slow (``grader.contracts.protocol.decode``), whatever it holds."""

import json

import pytest

from grader.contracts import protocol

MODULUS = 2**61 - 1  # an int's hash is the int modulo this


def _flood() -> bytes:
    """A forged reply of about 1 MB: a set of ints that all hash alike (as the
    hostile case ``hash_flood_reply`` sends)."""
    items = [k * MODULUS for k in range(48_000)]
    assert len({hash(item) for item in items}) == 1
    return json.dumps({"value": {"set": items}}).encode()


@pytest.fixture
def sets_built(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the sets the decoder builds (its one costly step)."""
    built: list[int] = []

    def counted(items: list[object]) -> set[object]:
        built.append(len(items))
        return set(items)

    monkeypatch.setattr(protocol, "set", counted, raising=False)
    return built


def test_a_hash_flood_is_refused_before_any_set_is_built(sets_built: list[int]) -> None:
    message = protocol.loads(_flood())
    with pytest.raises(protocol.BadMessage, match="container of 48,000 items"):
        protocol.decode(message["value"])
    assert sets_built == []


def test_colliding_ints_are_no_answer(sets_built: list[int]) -> None:
    """Few ints below 2**62 share a hash; larger ones are sent as objects, never plainly."""
    with pytest.raises(protocol.BadMessage, match="int larger"):
        protocol.decode({"set": [k * MODULUS for k in range(1, 1000)]})
    assert sets_built == []


def test_an_answer_holds_a_bounded_number_of_values(sets_built: list[int]) -> None:
    """A thousand sets of a thousand items: each within its own bound, not all at once."""
    forged = {"list": [{"set": list(range(1000))} for _ in range(1000)]}
    with pytest.raises(protocol.BadMessage, match="values in one answer"):
        protocol.decode(forged)
    assert sum(sets_built) <= protocol.MAX_NODES


def test_what_the_worker_sends_is_always_read_back() -> None:
    """The worker cuts what it sends to the same bounds, so a student's large answer is
    a wrong answer, never a message refused as forged."""
    big = [[list(range(50)) for _ in range(50)] for _ in range(50)]
    sent = protocol.encode(big)
    back = protocol.decode(json.loads(json.dumps(sent)))
    assert isinstance(back, list) and back[0][0] == list(range(50))
    assert _values(back) <= protocol.MAX_NODES
    assert protocol.decode(protocol.encode({1, 2, 3})) == {1, 2, 3}
    assert protocol.decode(protocol.encode(2**70)) != 2**70  # an object, as before


def _values(value: object) -> int:
    if isinstance(value, (list, tuple, set, frozenset)):
        return 1 + sum(_values(item) for item in value)
    return 1
