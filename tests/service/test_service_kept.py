"""The count of kept reports that a student's waiting status sleeps on: woken from
another thread as a report is kept, never left waiting for one kept before it
slept, and nothing left behind by a wait that ran out."""

import asyncio
import threading
import time

from grader.service.kept import Kept


def test_a_report_kept_in_another_thread_ends_the_wait_at_once():
    kept = Kept()
    seen = kept.count(7)
    keeper = threading.Timer(0.2, kept.add, args=(7,))

    async def waited() -> float:
        started = time.monotonic()
        keeper.start()
        await kept.wait(7, seen, 30)
        return time.monotonic() - started

    assert asyncio.run(waited()) < 5
    keeper.join()
    assert kept.count(7) == seen + 1 and not kept._waiting


def test_a_report_kept_before_the_wait_began_is_not_waited_for():
    kept = Kept()
    seen = kept.count(7)
    kept.add(7)  # kept while the status looked at the attempts
    started = time.monotonic()
    asyncio.run(kept.wait(7, seen, 30))
    assert time.monotonic() - started < 5


def test_another_students_report_does_not_end_the_wait_and_a_wait_leaves_nothing():
    kept = Kept()

    async def waited() -> float:
        started = time.monotonic()
        waiting = asyncio.create_task(kept.wait(7, kept.count(7), 0.3))
        await asyncio.sleep(0.05)
        kept.add(8)
        await waiting
        return time.monotonic() - started

    assert asyncio.run(waited()) >= 0.3
    assert not kept._waiting
