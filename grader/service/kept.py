"""The reports this process keeps, counted per student, and the status answers
that wait for them: a student's page asking whether its report is there hears
of it as it is kept, and nothing looks at the database meanwhile.

Reports are kept in the pool's threads; the answers wait in an event loop
(each with its own: a test's client may run one per request), woken through
it, thread-safely. A wait names the count it saw before it looked at the
attempts, so that a report kept while it looked ends the wait at once.
"""

import asyncio
import contextlib
import threading
from collections import Counter

Waiter = tuple[asyncio.AbstractEventLoop, asyncio.Event]


class Kept:
    def __init__(self) -> None:
        self._counts: Counter[int] = Counter()
        self._waiting: dict[int, list[Waiter]] = {}
        self._lock = threading.Lock()

    def count(self, student_id: int) -> int:
        """How many of the student's reports this process has kept."""
        with self._lock:
            return self._counts[student_id]

    def add(self, student_id: int) -> None:
        """One more report of the student's was kept (in any thread): their waits end."""
        with self._lock:
            self._counts[student_id] += 1
            waiting = self._waiting.pop(student_id, [])
        for loop, event in waiting:
            with contextlib.suppress(RuntimeError):  # its loop has ended: no one waits
                loop.call_soon_threadsafe(event.set)

    async def wait(self, student_id: int, seen: int, seconds: float) -> None:
        """Return once the student's count is no longer ``seen``, or after ``seconds``."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            if self._counts[student_id] != seen:
                return
            self._waiting.setdefault(student_id, []).append(waiter)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter[1].wait(), seconds)
        finally:
            with self._lock:
                left = self._waiting.get(student_id, [])
                if waiter in left:  # not woken: its time ran out, or it was cancelled
                    left.remove(waiter)
                    if not left:
                        del self._waiting[student_id]
