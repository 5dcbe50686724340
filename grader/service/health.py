"""``/healthz`` (the process answers) and ``/readyz`` (it can take and grade a
hand-in now; ``minimax-grader status`` prints it).

Readiness is five checks: the database answers, the store takes a file, the
grading image is there (this process's, or a grading host's), the broker
answers (with grading hosts), and at least one grading slot is free to take
jobs (the pool's threads, or the hosts' slots). Each runs in a thread of its
own and is cut off after CHECK_SECONDS, so that the answer comes fast even when
a check hangs. An answer names no URL, password or path: a check that fails says
what failed and the exception's type, never its text.
"""

import asyncio
import os
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Protocol

from sqlalchemy import text
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from grader.service.core import Service

CHECK_SECONDS = 3.0
GRADING = ("image", "broker", "slots")  # the checks of what grades


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: str


class Grading(Protocol):
    """What grades (the pool, or the dispatcher to the hosts): its own checks."""

    def grading(self) -> dict[str, Check]: ...


def failed(what: str, exc: BaseException) -> Check:
    """A failed check: what failed and the exception's type (its text may hold a URL)."""
    return Check(False, f"{what} ({type(exc).__name__})")


def database(service: Service) -> Check:
    try:
        with service.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:  # any driver's error: not ready
        return failed("the database does not answer", exc)
    return Check(True, f"{service.engine.dialect.name} answers")


def store(service: Service) -> Check:
    """The store's folder takes a file (a full disk, a lost mount, a read-only one fail)."""
    try:
        with tempfile.NamedTemporaryFile(dir=service.store.root, prefix=".ready-") as probe:
            probe.write(b"ready")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return failed("the store takes no file", exc)
    return Check(True, "the store takes files")


class Health:
    """The two endpoints; ``pool`` is what grades (the local pool or the dispatcher
    to the grading hosts), None where nothing does."""

    def __init__(self, service: Service, pool: Grading | None) -> None:
        self.service = service
        self.pool = pool

    def routes(self) -> list[Route]:
        return [Route("/healthz", self.healthz, methods=["GET"]),
                Route("/readyz", self.readyz, methods=["GET"])]

    async def healthz(self, request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(self, request: Request) -> Response:
        checks = await self.checks()
        ready = all(check.ok for check in checks.values())
        return JSONResponse({"ready": ready,
                             "checks": {name: asdict(check) for name, check in checks.items()}},
                            status_code=200 if ready else 503)

    async def checks(self) -> dict[str, Check]:
        """Every check, each bounded by CHECK_SECONDS."""
        service = self.service
        found = await asyncio.gather(
            self._bounded(lambda: {"database": database(service)}, ("database",)),
            self._bounded(lambda: {"store": store(service)}, ("store",)),
            self._bounded(self._grading, GRADING))
        return {name: check for part in found for name, check in part.items()}

    def _grading(self) -> dict[str, Check]:
        if self.pool is None:
            return dict.fromkeys(GRADING, Check(False, "nothing grades in this process"))
        return self.pool.grading()

    @staticmethod
    async def _bounded(check: Callable[[], dict[str, Check]],
                       names: tuple[str, ...]) -> dict[str, Check]:
        try:
            return await asyncio.wait_for(run_in_threadpool(check), CHECK_SECONDS)
        except TimeoutError:
            return dict.fromkeys(names, Check(False, f"no answer within {CHECK_SECONDS:g} s"))
