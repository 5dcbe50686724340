"""Grading hosts over a network: a broker that asks for a password, and one that
also speaks only TLS (with a certificate made here), each restarted mid-job. The
host reconnects by itself, the job under way is graded once, and the next job
reaches the same host: nothing is lost."""

import secrets
import shutil

import pytest
import redis
from conftest import skip_loudly

from grader.hosting import hosts
from tests.service.certificates import self_signed
from tests.service.conftest import FULL_MARKS
from tests.service.held import held, letting_go, under_way
from tests.service.redis_server import RedisServer, started
from tests.service.test_service_celery import Grid, wait_for


@pytest.fixture(params=["password", "password-and-tls"])
def secured(request, tmp_path_factory):
    if shutil.which("redis-server") is None:
        skip_loudly("grading hosts over a secured broker",
                    "no redis-server on PATH (Debian: apt-get install redis-server)")
    folder = tmp_path_factory.mktemp("redis")
    certificate = self_signed(folder) if request.param == "password-and-tls" else None
    server = started(folder, secrets.token_hex(16), certificate)
    yield server
    server.stop()


def test_the_broker_refuses_a_client_without_its_password_or_tls(secured):
    assert hosts.client(secured.url).ping()
    bare = f"{'rediss' if secured.certificate else 'redis'}://127.0.0.1:{secured.port}/0"
    with pytest.raises(redis.AuthenticationError):
        redis.Redis.from_url(bare + (f"?ssl_ca_certs={secured.certificate.cert}"
                                     if secured.certificate else "")).ping()
    if secured.certificate:  # plain text to the TLS port: no answer it understands
        with pytest.raises(redis.ConnectionError):
            redis.Redis.from_url(f"redis://:{secured.password}@127.0.0.1:{secured.port}/0",
                                 socket_timeout=5).ping()


def test_a_host_reconnects_after_the_broker_restarts_mid_job_and_loses_nothing(
        secured: RedisServer, tmp_path):
    grid = Grid(tmp_path, secured.url)
    try:
        host = grid.worker()
        first, second = grid.enrol(2)
        client = hosts.client(secured.url)
        wait_for("the host seen in the broker", lambda: hosts.seen(client))
        grid.hand_in(first, held())
        wait_for("the grading under way", lambda: under_way(grid.temp))
        secured.restart()  # empty: the job's message, its lease, the host's beat, all gone
        wait_for("the host seen again", lambda: hosts.seen(client), seconds=60)
        wait_for("the job under way graded", letting_go(grid.temp, grid.finished(1)),
                 seconds=120)
        grid.hand_in(second, FULL_MARKS.read_bytes())
        wait_for("the next job graded by the same host", grid.finished(2), seconds=120)
        assert [job.state for job in grid.jobs()] == ["done", "done"]
        assert grid.reports() == 2
        assert host.process.poll() is None  # the same process, reconnected
        said = host.said()
        assert "job 2: grading on" in said
        assert secured.password not in said  # the URL's password is in no log line
    finally:
        grid.close()
