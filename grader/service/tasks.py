"""Grading on other hosts through Celery, with Redis as the broker.

A task carries a job's id and the grading image the server expects; the job
itself (its submission, its attempts) is in the shared database. Delivery is
at least once: a job may arrive twice, and is graded by whoever holds its
*lease*, a Redis key the grading host keeps alive while it grades. A lease
that lapses means a dead host; the web process then sends the job again (see
``dispatch``), long before the broker's own visibility timeout would.
"""

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import redis
from celery import Celery, Task  # type: ignore[import-untyped]  # no type hints

from grader import exercises, image, installs
from grader.service import queue
from grader.service.core import Service

log = logging.getLogger("grader.service")

TASK = "grader.grade"
LEASE_SECONDS = 5.0  # a grading host silent this long is taken for dead
RENEW_SECONDS = 1.0
# A refused job is offered again after this pause, during which the refusing host
# is busy: a host that is waiting for work takes it, not the refusing one (a
# retry's countdown would have the refusing host hold it until its time).
REFUSED_PAUSE = 1.0
RETRY_COUNTDOWN = 1.0  # before a job whose grader raised is tried again


def lease_key(job_id: int) -> str:
    return f"minimax-grader:lease:{job_id}"


def visibility_timeout() -> float:
    """Seconds a delivered, unacknowledged job stays with its host before the broker
    hands it to another: above any exercise's whole run, with margin, so that a
    slow grading is never given to a second host while the first still grades."""
    longest = max(exercise.limits.total_seconds for exercise in exercises.load_all())
    return 2 * longest + 60


def make_app(broker: str) -> Celery:
    app = Celery("minimax-grader", broker=broker, set_as_current=False)
    app.conf.update(
        # At least once: acknowledged after grading, and given back if the pool's
        # process dies; one job taken at a time, so none waits behind a long one.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,  # the command's own log (text or JSON) stays
        broker_transport_options={
            "visibility_timeout": visibility_timeout(),
            # kombu's Redis transport: a restore_visible sweep every
            # unacked_restore_interval seconds, scanning on every call
            # (unacked_restore_throttle 1, default 10). It restores only messages
            # older than visibility_timeout: the broker's slow backstop.
            "unacked_restore_interval": 1,
            "unacked_restore_throttle": 1,
            # A publish or a poll on a vanished broker fails instead of hanging.
            "socket_timeout": 10,
            "socket_connect_timeout": 5,
        },
        # A submission is never held up by a broker that is down: the job row is
        # kept, and the web process sends it again once the broker is back.
        task_publish_retry_policy={"max_retries": 2, "interval_start": 0,
                                   "interval_step": 0.5, "interval_max": 1},
    )
    # Retries unbounded: the job's attempts in the database are what is bounded.
    app.task(bind=True, name=TASK, max_retries=None)(grade)
    return app


def expected_image() -> str:
    """What a host needs to grade this grader's version: the grading image's tag (a
    hash of what it holds), and the hashes of what the host's judge runs (the
    harness, the suites) and of the exercise.toml files the host applies (points,
    titles), which the image does not hold."""
    return f"{image.default_tag()}@{installs.judge_hash()}+{exercises.facts_hash()}"


@dataclass
class Host:
    """What a grading host's worker grades with: set once, before it consumes."""

    service: Service
    image: Callable[[], str]  # the grading image it has now, as expected_image() names one
    client: redis.Redis
    # Two workers may share a host: the process tells them apart in the job's notes.
    name: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")


HOST: Host | None = None


class Lease:
    """The right to grade a job, kept alive by a thread while it is held."""

    def __init__(self, client: redis.Redis, job_id: int, holder: str) -> None:
        self.client = client
        self.key = lease_key(job_id)
        self.holder = holder.encode()
        self.held = self._claim()
        self._done = threading.Event()
        if self.held:
            threading.Thread(target=self._renew, daemon=True).start()

    def _claim(self) -> bool:
        return bool(self.client.set(self.key, self.holder, nx=True,
                                    px=int(LEASE_SECONDS * 1000)))

    def _renew(self) -> None:
        while not self._done.wait(RENEW_SECONDS):
            try:
                # Made again if a broker restart lost it, unless another host has it now.
                if not self.client.pexpire(self.key, int(LEASE_SECONDS * 1000)):
                    self._claim()
            except redis.RedisError:  # the broker restarts: renew once it is back
                log.warning("could not renew the lease %s", self.key)

    def release(self) -> None:
        self._done.set()
        try:
            if self.held and self.client.get(self.key) == self.holder:  # not another's
                self.client.delete(self.key)
        except redis.RedisError:  # it lapses by itself
            pass


def grade(task: Task, job_id: int, wanted: str) -> None:
    """Grade job ``job_id`` here, if this host has the grading image ``wanted``."""
    host = HOST
    assert host is not None, "a grading host's worker sets HOST before it consumes"
    if host.service.queue.state(job_id) not in ("waiting", "running"):  # a copy sent again
        log.info("job %d: already graded", job_id)
        return
    have = host.image()
    if wanted != have:
        why = (f"{queue.REFUSED} {host.name}: the job needs the grading image {wanted}, this host "
               f"has {have}")
        log.warning("job %d %s", job_id, why)
        host.service.queue.note(job_id, why)
        time.sleep(REFUSED_PAUSE)
        raise task.retry(countdown=0)
    lease = Lease(host.client, job_id, host.name)
    try:
        if not lease.held:  # another host grades it now; a dead one's lease lapses
            log.info("job %d: graded elsewhere", job_id)
            return
        if not host.service.queue.take(job_id, "waiting", "running"):
            log.info("job %d: already graded", job_id)
            return
        log.info("job %d: grading on %s", job_id, host.name)
        again = host.service.jobs.run(job_id)
    finally:
        lease.release()
    if again:
        raise task.retry(countdown=RETRY_COUNTDOWN)
