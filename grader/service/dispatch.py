"""The web process's side of grading hosts: it sends jobs to the broker, never grades.

Every job is in the database before it is sent, so the database, not the
broker, is what is never lost. A thread looks every second for what the
broker may have lost and sends it again:

* at the start, every job left waiting or running (a restart loses nothing);
* a running job whose host's lease has lapsed (the host died mid-grade);
* every waiting job when Redis comes back as a new server (a restart that kept
  no data), and the jobs whose sending failed while it was down.

A job sent twice is harmless: its lease lets one host grade it, and the
report's unique (submission, grader version) keeps one report.
"""

import logging
import threading

import redis

from grader.hosting import hosts
from grader.service import tasks
from grader.service.core import Service
from grader.service.health import Check, failed
from grader.service.pool import Pool

log = logging.getLogger("grader.service")
SWEEP_SECONDS = 1.0


class Dispatcher(Pool):
    """A pool whose workers are the grading hosts' Celery workers."""

    def __init__(self, service: Service, broker: str) -> None:
        super().__init__(service, workers=0)
        self.app = tasks.make_app(broker)
        self.redis = hosts.client(broker)
        self.image = tasks.expected_image()
        self._unsent: set[int] = set()
        self._lock = threading.Lock()
        self._server: str | None = None  # the Redis run_id last seen

    def start(self) -> None:
        self.service.queued.listen(self.send)
        self.send(self.service.queue.jobs("waiting", "running"))
        self._server = self._run_id()
        thread = threading.Thread(target=self._loop, name="dispatcher", daemon=True)
        thread.start()
        self._threads.append(thread)

    def send(self, job_ids: list[int]) -> None:
        """Hand the jobs to the broker; those it does not take are sent again later."""
        for job_id in job_ids:
            try:
                self.app.send_task(tasks.TASK, args=[job_id, self.image])
            except Exception as exc:  # the broker is down: the job waits in the database
                log.warning("job %d: not sent to the broker (%s); sending it again later",
                            job_id, type(exc).__name__)
                with self._lock:
                    self._unsent.add(job_id)
            else:
                with self._lock:
                    self._unsent.discard(job_id)

    def grading(self) -> dict[str, Check]:
        """The readiness of the grading hosts: the broker answers, and hosts with this
        version's grading image beat (see ``hosts``)."""
        try:
            seen = [host for host in self.hosts_seen() if host.kind == "grading"]
        except redis.RedisError as exc:
            down = failed("the broker does not answer", exc)
            return {"image": down, "broker": down, "slots": down}
        ready = [host for host in seen if host.image == self.image]
        image = (f"{len(ready)} grading host(s) have the grading image {self.image}" if ready
                 else f"no grading host has the grading image {self.image}")
        if len(seen) > len(ready):
            image += f"; {len(seen) - len(ready)} host(s) have another or none"
        slots = sum(host.slots for host in ready)
        return {"image": Check(bool(ready), image), "broker": Check(True, "the broker answers"),
                "slots": Check(slots > 0, f"{slots} grading slot(s) on the hosts")}

    def hosts_seen(self) -> list[hosts.Seen]:
        """The hosts beating in the broker (grading and match hosts)."""
        return hosts.seen(self.redis)

    def _run_id(self) -> str | None:
        try:
            return str(self.redis.info("server")["run_id"])
        except redis.RedisError:
            return None

    def _loop(self) -> None:
        while not self._stop.wait(SWEEP_SECONDS):
            try:
                self.sweep()
            except Exception:  # the database or the broker went away: look again later
                log.exception("the dispatcher could not look for lost jobs")

    def sweep(self) -> None:
        server = self._run_id()
        if server is None:
            return
        again = set()
        if self._server is not None and server != self._server:
            log.warning("the broker restarted: sending the waiting jobs again")
            again.update(self.service.queue.jobs("waiting"))
        self._server = server
        for job_id in self.service.queue.jobs("running"):
            if not self.redis.exists(tasks.lease_key(job_id)) and self.service.queue.put_back(
                    job_id, "its grading host stopped answering; sent to another"):
                log.warning("job %d: its grading host stopped answering", job_id)
                again.add(job_id)
        with self._lock:
            again |= self._unsent
        if again:
            self.send(sorted(again))
