"""Which grading hosts are up: each says so in Redis every few seconds.

A ``worker`` and a ``match-host`` keep a key of their own in the broker, made
again at each beat (so a broker restarted empty hears of them within a beat)
and lapsing when the host stops beating: the web process reads them for its
readiness and its metrics. A key holds what the host grades with, never a
secret.
"""

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

log = logging.getLogger("grader.service")
PREFIX = "minimax-grader:host:"
BEAT_SECONDS = 2.0
LAPSE_SECONDS = 10.0  # a host silent this long is no longer counted
KINDS = ("grading", "match")


def client(url: str) -> redis.Redis:
    """A Redis client for ``url`` (redis:// or rediss://, with a password or not)
    that gives up on a broker that does not answer instead of hanging."""
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


@dataclass(frozen=True)
class Seen:
    """A host, as its latest beat said."""

    kind: str  # grading (minimax-grader worker) or match (minimax-grader match-host)
    name: str
    image: str  # the grading image it has, as tasks.expected_image names one
    slots: int  # jobs (or pairings) it takes at once


class Beacon:
    """A host's beat: ``facts()`` (its image, its slots) written every BEAT_SECONDS."""

    def __init__(self, redis_client: redis.Redis, kind: str, name: str,
                 facts: Callable[[], dict[str, Any]]) -> None:
        self.client = redis_client
        self.key = f"{PREFIX}{kind}:{name}"
        self.kind = kind
        self.name = name
        self.facts = facts
        self._stop = threading.Event()
        self._down = False  # said once, until it answers again
        self._thread = threading.Thread(target=self._loop, name="beacon", daemon=True)

    def start(self) -> "Beacon":
        """Beat now (a host is seen as it starts), then every BEAT_SECONDS."""
        self._beat()
        self._thread.start()
        return self

    def _beat(self) -> None:
        try:
            seen = {"kind": self.kind, "name": self.name, **self.facts()}
            self.client.set(self.key, json.dumps(seen), px=int(LAPSE_SECONDS * 1000))
        except redis.RedisError as exc:  # it restarts: beat again once it is back
            if not self._down:
                log.warning("the broker does not answer (%s); trying again",
                            type(exc).__name__)
            self._down = True
            return
        if self._down:
            log.info("the broker answers again")
        self._down = False

    def _loop(self) -> None:
        while not self._stop.wait(BEAT_SECONDS):
            self._beat()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        try:
            self.client.delete(self.key)
        except redis.RedisError:  # it lapses by itself
            pass


def seen(redis_client: redis.Redis) -> list[Seen]:
    """The hosts whose beat has not lapsed, by kind and name."""
    keys = sorted(redis_client.scan_iter(match=f"{PREFIX}*", count=500))
    found = []
    for raw in redis_client.mget(keys) if keys else []:
        if raw is None:  # lapsed between the scan and the read
            continue
        said = json.loads(raw)
        found.append(Seen(kind=str(said["kind"]), name=str(said["name"]),
                          image=str(said.get("image", "")), slots=int(said.get("slots", 0))))
    return found
