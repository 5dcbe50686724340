"""The grading pool: a few threads that take waiting jobs from the database.

A thread sleeps while the queue is empty; a new job wakes one thread at once
(one each: a thread woken for a job another took only asks the database for
nothing), and each also looks again every few seconds (a job queued by another process,
or put back after a failure). While the service's sandbox can't be used (the
grading image is missing: see ``gate``), no job is taken: they wait.
"""

import logging
import threading

from grader.hosting.hosts import Seen
from grader.service.core import Service
from grader.service.health import Check

log = logging.getLogger("grader.service")
POLL_SECONDS = 2.0


class Pool:
    def __init__(self, service: Service, workers: int) -> None:
        self.service = service
        self.workers = workers
        self._wakes = threading.Semaphore(0)  # one a queued job, taken by whoever looks
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        self.service.queued.listen(self._queued)
        for number in range(self.workers):
            thread = threading.Thread(target=self._loop, name=f"grader-{number}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop taking jobs, cut short those being graded (each is put back, uncharged,
        to be graded at the next start) and wait for the threads, which then end
        within seconds."""
        self._stop.set()
        self.service.jobs.stopping.set()
        if self._threads:  # a pool of none (grading hosts grade) has none to wake
            self._wakes.release(len(self._threads))
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    def grading(self) -> dict[str, Check]:
        """The readiness of this process's grading (see ``health``): its sandbox, and
        its threads alive."""
        gate = self.service.jobs.gate
        sandbox = gate.sandbox() if gate else None
        image = (Check(True, "grades with a function of its own") if gate is None else
                 Check(False, gate.why or "no sandbox") if sandbox is None else
                 Check(True, f"grades in the {sandbox.name} sandbox"))
        alive = sum(thread.is_alive() for thread in self._threads)
        return {"image": image, "broker": Check(True, "none: this process grades"),
                "slots": Check(alive > 0, f"{alive} of {self.workers} grading slot(s) running")}

    def hosts_seen(self) -> list[Seen]:
        """The grading hosts seen: none, where this process grades."""
        return []

    def _queued(self, job_ids: list[int]) -> None:
        if job_ids:
            self._wakes.release(len(job_ids))

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                gate = self.service.jobs.gate
                job_id = None if gate and gate.sandbox() is None else self.service.queue.claim()
                if job_id is not None:
                    # The wake-up this job left, if no one took it yet: it would only
                    # send a thread to find the queue as this one leaves it.
                    self._wakes.acquire(blocking=False)
                    self.service.jobs.run(job_id)
                    continue
            except Exception:  # the database went away for a moment: look again later
                log.exception("the grading pool could not take a job")
            # A job queued since the look left its wake-up: this returns at once.
            self._wakes.acquire(timeout=POLL_SECONDS)
