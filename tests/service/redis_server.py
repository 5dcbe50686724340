"""A real redis-server for the tests, on a free loopback port, stopped after."""

import socket
import subprocess
import time
from pathlib import Path

import redis

from tests.service.certificates import Certificate


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """``redis-server`` with no persistence; ``restart`` keeps the port, loses the data.

    With a ``password`` it asks for it; with a ``certificate`` it speaks TLS only
    (``rediss://``, the URL naming the certificate as the CA its clients trust)."""

    def __init__(self, folder: Path, password: str | None = None,
                 certificate: Certificate | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        self.password = password
        self.certificate = certificate
        who = f":{password}@" if password else ""
        if certificate is None:
            self.url = f"redis://{who}127.0.0.1:{self.port}/0"
        else:
            self.url = (f"rediss://{who}127.0.0.1:{self.port}/0?ssl_cert_reqs=required"
                        f"&ssl_ca_certs={certificate.cert}")
        self.process: subprocess.Popen[bytes] | None = None

    def _arguments(self) -> list[str]:
        listen = ["--port", str(self.port)]
        if self.certificate is not None:
            listen = ["--port", "0", "--tls-port", str(self.port),
                      "--tls-cert-file", str(self.certificate.cert),
                      "--tls-key-file", str(self.certificate.key),
                      "--tls-ca-cert-file", str(self.certificate.cert),
                      "--tls-auth-clients", "no"]
        asks = ["--requirepass", self.password] if self.password else []
        return ["redis-server", *listen, *asks, "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.folder)]

    def start(self) -> None:
        log = open(self.folder / "redis.log", "ab")
        self.process = subprocess.Popen(self._arguments(), stdout=log, stderr=log)
        log.close()
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("redis-server did not start; see redis.log") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def started(folder: Path, password: str | None = None,
            certificate: Certificate | None = None) -> RedisServer:
    server = RedisServer(folder, password, certificate)
    server.start()
    return server
