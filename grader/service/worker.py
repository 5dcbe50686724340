"""``minimax-grader worker``: a grading host's Celery worker.

It grades in the Docker sandbox and keeps the reports in the shared database;
the submissions' files are read from the shared data folder's store.
"""

import logging

import redis

from grader import grading, image
from grader.sandbox import Sandbox, Unavailable
from grader.service import core, tasks
from grader.service.core import Options, Service

log = logging.getLogger("grader.service")


def image_here(sandbox: Sandbox) -> str:
    """The grading image this host has, named as ``tasks.expected_image`` names one.

    The local sandbox runs this package's own harness: it has what this version
    expects. Docker has the image its label says, or none."""
    if isinstance(sandbox, Unavailable):
        return f"none ({sandbox.why})"
    if sandbox.name == "local":
        return tasks.expected_image()
    label = image.connect().images.get(image.IMAGE).labels.get(image.HASH_LABEL)
    return f"{image.IMAGE}@{label}"


def run(options: Options, concurrency: int, pretend_image: str | None = None) -> int:
    """Consume grading jobs until stopped (SIGTERM, Ctrl-C): the exit status.

    ``pretend_image``, for tests only, is the image this host claims to have."""
    assert options.broker is not None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    sandbox = core.open_sandbox(options.sandbox)
    try:
        service = Service(options, sandbox=sandbox)
        tasks.HOST = tasks.Host(service, pretend_image or image_here(sandbox),
                                redis.Redis.from_url(options.broker, socket_timeout=5))
        log.info("grading host %s has the grading image %s", tasks.HOST.name, tasks.HOST.image)
        app = tasks.make_app(options.broker)
        # Threads: one process, one database engine and sandbox, as the local pool.
        app.worker_main(["worker", "--pool", "threads", "--concurrency", str(concurrency),
                         "--loglevel", "INFO", "--without-gossip", "--without-mingle"])
    finally:
        grading.close(sandbox)
    return 0
