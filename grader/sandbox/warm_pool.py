"""Grading containers started ahead of need, by exercise and limits.

A pool keeps up to ``size`` containers of each exercise and limits in use
started (their launcher waits for its job on stdin), so that the engine's
start-up of the next container overlaps the current run, or the wait of a
queued job. Those of a pair unused for ``STALE_SECONDS`` are removed, and
``close()`` removes them all. Each is still used for one submission only.
"""

import collections
import threading
import time
from collections.abc import Callable

from grader.exercises import Exercise, Limits
from grader.sandbox.containers import Running

Key = tuple[str, Limits]  # an exercise's id, and the limits of its runs

CLOSE_GRACE = 40  # seconds close() waits for warm-ups (the client's own timeout is 30 s)
STALE_SECONDS = 300  # a pair of exercise and limits unused this long keeps no warm container


def key_of(exercise: Exercise, limits: Limits) -> Key:
    return exercise.id, limits


class WarmPool:
    """Started containers waiting for a job: ``start`` makes one, ``discard``
    removes one."""

    def __init__(self, size: int, start: Callable[[Exercise, Limits], Running],
                 discard: Callable[[Running], None]) -> None:
        self.size = size
        self.start, self.discard = start, discard
        self.ready: list[tuple[Key, Running]] = []  # started, waiting for a job
        self.making: collections.Counter[Key] = collections.Counter()
        self.used: dict[Key, float] = {}  # key -> when last wanted
        self.warming: list[threading.Thread] = []  # warm-ups that may still start one
        self.closed = False
        self.lock = threading.Lock()

    def take(self, exercise: Exercise, limits: Limits) -> Running | None:
        """A waiting container of this exercise and limits, now the caller's; or None."""
        key = key_of(exercise, limits)
        with self.lock:
            found = next((running for k, running in self.ready if k == key), None)
            self.ready = [(k, running) for k, running in self.ready if running is not found]
        return found

    def warm(self, exercise: Exercise, limits: Limits) -> None:
        """Start warming containers for this exercise and limits (with a size),
        before a job needs one. Those of pairs unused for ``STALE_SECONDS`` are
        removed."""
        if not self.size or self.closed:
            return
        key, now = key_of(exercise, limits), time.monotonic()
        with self.lock:
            self.used[key] = now
            stale = [r for k, r in self.ready if now - self.used.get(k, now) > STALE_SECONDS]
            self.ready = [(k, r) for k, r in self.ready if r not in stale]
        for running in stale:
            self.discard(running)
        warming = threading.Thread(target=self._warm_up, args=(exercise, limits), daemon=True)
        with self.lock:  # listed once started: a listed warm-up that is not alive has ended
            warming.start()
            self.warming = [t for t in self.warming if t.is_alive()] + [warming]

    def _warm_up(self, exercise: Exercise, limits: Limits) -> None:
        """Start containers until ``size`` wait, or are being made, for these limits
        (errors: the next run's)."""
        key = key_of(exercise, limits)
        while True:
            with self.lock:
                if self.closed or sum(k == key for k, _ in self.ready) + self.making[key] \
                        >= self.size:
                    return
                self.making[key] += 1
            try:
                running = self.start(exercise, limits)
            except Exception:  # the engine is failing: a run made when needed will say how
                with self.lock:
                    self.making[key] -= 1
                return
            with self.lock:
                self.making[key] -= 1
                if not self.closed:
                    self.ready.append((key, running))
                    continue
            self.discard(running)
            return

    def close(self) -> None:
        """Remove the waiting containers, those a warm-up is still making included:
        a warm-up cut off by the end of the process would leave its container."""
        with self.lock:
            ready, self.ready, self.closed = self.ready, [], True
            warming = list(self.warming)
        for _, running in ready:
            self.discard(running)
        deadline = time.monotonic() + CLOSE_GRACE
        for thread in warming:  # each removes what it made once it sees closed
            thread.join(max(0.0, deadline - time.monotonic()))
