"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary
folder, listening on a free loopback port only (no Unix socket), trusting
every local connection, stopped and deleted at the end.

PostgreSQL refuses to run as root: under root the cluster belongs to, and the
server runs as, the ``postgres`` user the Debian package makes (else
``nobody``).

The fixtures below are imported by the test modules that use them: the server
(one per test process, started at the first use) and ``database``, each test's
database URL, run once on SQLite (None: the data folder's file) and once on a
new PostgreSQL database. Without PostgreSQL its tests are skipped, loudly, but
they fail under CI (CI=true), where it must be installed.
"""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import psycopg
import pytest
from conftest import skip_loudly

SUPERUSER = "grader"
START_TRIES = 3  # the free port may be taken between the probe and the start


def until(check: Callable[[], object], seconds: float, what: str) -> None:
    """Poll ``check`` until it holds; fail after ``seconds`` (the tests' one way to wait)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.05)


class Missing(Exception):
    """PostgreSQL's server programs are not installed."""


def binaries() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, or Debian's newest version."""
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                      key=lambda found: int(Path(found).parts[-3].split(".")[0]))
    if not versions:
        raise Missing("no PostgreSQL server (initdb, pg_ctl): install the Debian package "
                      "postgresql")
    return Path(versions[-1]).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _account() -> pwd.struct_passwd | None:
    """Whom the server runs as: None for this user, unless this user is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise Missing("running as root with neither a postgres nor a nobody user")


class PostgresServer:
    def __init__(self) -> None:
        self.bin = binaries()
        self.account = _account()
        self.folder = Path(tempfile.mkdtemp(prefix="minimax-grader-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        if self.account is not None:  # mkdtemp's folder is root's alone
            os.chown(self.folder, self.account.pw_uid, self.account.pw_gid)

    def _run(self, *command: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
        as_user = ({} if self.account is None else
                   {"user": self.account.pw_uid, "group": self.account.pw_gid,
                    "extra_groups": []})
        return subprocess.run([str(part) for part in command], capture_output=True, text=True,
                              check=check, timeout=120, cwd=self.folder, **as_user)

    def start(self) -> "PostgresServer":
        self._run(self.bin / "initdb", "-D", self.data, "-U", SUPERUSER, "--auth=trust",
                  "--no-sync", "-E", "UTF8", "--locale=C")
        for _ in range(START_TRIES):
            self.port = free_port()
            options = " ".join(f"-c {setting}" for setting in self._settings())
            done = self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.folder / "log",
                             "-o", options, "-w", "-t", "60", "start", check=False)
            if done.returncode == 0:
                return self
        self.stop()
        raise RuntimeError(f"PostgreSQL did not start: {done.stderr}\n{self.log()}")

    def _settings(self) -> Sequence[str]:
        # fsync off: a test cluster needs no durability, and it is far quicker
        return (f"port={self.port}", "listen_addresses=127.0.0.1",
                "unix_socket_directories=''", "fsync=off", "synchronous_commit=off",
                "full_page_writes=off", "max_connections=200")

    def log(self) -> str:
        path = self.folder / "log"
        return path.read_text(errors="replace") if path.exists() else ""

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database: its SQLAlchemy URL."""
        name = f"test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(host="127.0.0.1", port=self.port, user=SUPERUSER,
                             dbname="postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop",
                      check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer()
    except Missing as why:
        skip_loudly("the service on PostgreSQL", str(why))
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str | None:
    if request.param == "sqlite":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()
