"""``minimax-grader worker``: a grading host's Celery worker.

It grades in the Docker sandbox and keeps the reports in the shared database;
the submissions' files are read from the shared data folder's store. While
its grading image is missing it refuses jobs, saying why on each (see
``gate``), and takes them again once the image is built.
"""

import logging

from celery.signals import worker_shutting_down  # type: ignore[import-untyped]

from grader.hosting import hosts
from grader.hosting.watch import PLAIN, Watch
from grader.service import tasks
from grader.service.core import Service
from grader.service.gate import Gate
from grader.service.options import Options

log = logging.getLogger("grader.service")


def image_here(gate: Gate) -> str:
    """The grading image this host has now, named as ``tasks.expected_image`` names one.

    An open gate has the image this version expects (the local sandbox runs this
    package's own harness); a shut one has none, and says why."""
    return tasks.expected_image() if gate.sandbox() is not None else f"none ({gate.why})"


def run(options: Options, concurrency: int, pretend_image: str | None = None,
        watch: Watch = PLAIN) -> int:
    """Consume grading jobs until stopped (SIGTERM, Ctrl-C): the exit status.

    ``pretend_image``, for tests only, is the image this host claims to have."""
    assert options.broker is not None
    watch.start_log()
    gate = Gate.chosen(options.sandbox, warm=concurrency)  # closed below: no container left
    beacon = None
    try:
        service = Service(options, gate=gate)
        watch.expose(service.metrics.registry)
        host = tasks.HOST = tasks.Host(service, (lambda: pretend_image) if pretend_image
                                       else lambda: image_here(gate),
                                       hosts.client(options.broker))
        log.info("grading host %s has the grading image %s", host.name, host.image())
        beacon = hosts.Beacon(host.client, "grading", host.name,
                              lambda: {"image": host.image(), "slots": concurrency}).start()
        app = tasks.make_app(options.broker)
        # A stop (SIGTERM, Ctrl-C) cuts the gradings in flight short: each job is sent
        # again, uncharged, for a host to grade later (tasks.grade retries it).
        worker_shutting_down.connect(lambda **_: service.jobs.stopping.set(), weak=False)
        # Threads: one process, one database engine and sandbox, as the local pool.
        app.worker_main(["worker", "--pool", "threads", "--concurrency", str(concurrency),
                         "--loglevel", "INFO", "--without-gossip", "--without-mingle"])
    finally:
        if beacon is not None:
            beacon.stop()
        gate.close()
    return 0
