"""The grading pool: a few threads that take waiting jobs from the database.

A thread sleeps while the queue is empty; a new submission wakes one at once,
and each also looks again every few seconds (a job queued by another process,
or put back after a failure). While the service's sandbox can't be used (the
grading image is missing: see ``gate``), no job is taken: they wait.
"""

import logging
import threading

from grader.service.core import Service

log = logging.getLogger("grader.service")
POLL_SECONDS = 2.0


class Pool:
    def __init__(self, service: Service, workers: int) -> None:
        self.service = service
        self.workers = workers
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        self.service.queued = lambda job_ids: self._wake.set()
        for number in range(self.workers):
            thread = threading.Thread(target=self._loop, name=f"grader-{number}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop taking jobs; wait for those being graded (a job cut short would be
        taken again at the next start anyway)."""
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()  # before looking: a wake-up after the look is kept
            try:
                gate = self.service.gate
                job_id = None if gate and gate.sandbox() is None else self.service.queue.claim()
                if job_id is not None:
                    self.service.run(job_id)
                    continue
            except Exception:  # the database went away for a moment: look again later
                log.exception("the grading pool could not take a job")
            self._wake.wait(POLL_SECONDS)
