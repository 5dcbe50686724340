"""The host's messages with a warm judge over its socket, as plain data.

A warm judge is the supervisor started once, in a bubblewrap view of its own
(or unwrapped, for the local sandbox without bubblewrap), with pytest and
every suite's imports made; it forks one child per run. They talk over a
SOCK_SEQPACKET socket, one JSON object a message:

* the judge says ``ready`` once its imports are made;
* the host sends a run's ``request`` (the job file's path, and the bubblewrap
  prefix of the run's zygote, the token of a container's launcher, or
  neither: an unwrapped judge's child starts the workers itself) with two
  file descriptors, the run's results channel and its log, and, for a
  container, a third: a listening socket the container's launcher connects to,
  saying the token first;
* the run's child says ``started`` (the kernel names its process to the host,
  which receives the sender's credentials) and waits for ``go``: the host puts
  it in the run's control group first, so that nothing of the run is timed
  outside it;
* the judge says ``exit`` with the child's exit code once it has ended.
"""

import json
from typing import Any

READY = "ready"
REQUEST = "request"
STARTED = "started"
GO = "go"
EXIT = "exit"

MESSAGE_CAP = 1 << 20  # bytes of one message (a request's prefix lists the views' binds)
FDS = 2  # a request's descriptors: the results channel, then the log ...
LAUNCHER_FDS = 3  # ... then, for a container's run, the socket its launcher connects to


class BadMessage(ValueError):
    """Not a message of this protocol."""


def encode(kind: str, **facts: Any) -> bytes:
    return json.dumps({"kind": kind, **facts}).encode()


def decode(data: bytes, *kinds: str) -> dict[str, Any]:
    """The message in ``data``, whose kind must be one of ``kinds``."""
    try:
        message = json.loads(data)
    except ValueError:
        raise BadMessage(f"not JSON: {data[:80]!r}") from None
    if not isinstance(message, dict) or message.get("kind") not in kinds:
        raise BadMessage(f"expected {' or '.join(kinds)}, got {data[:80]!r}")
    return message


def request(job: str, wrap: list[str] | None = None, token: str = "") -> bytes:
    """A run's request: its job file's path, and its zygote's bubblewrap prefix
    (``wrap``) or its container launcher's ``token``."""
    return encode(REQUEST, job=job, wrap=wrap, token=token)
