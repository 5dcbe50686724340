"""Log lines an operator can search: one per request and one per grading run.

Every logger's lines go to stderr, as text or, with ``--log-format json``, as
one JSON object a line (``grader.hosting.watch``). A line of ``line`` is
``event key=value ...`` in both, its facts also fields of its own in JSON.

Nothing secret is logged: a request is named by its route (``/s/{token}``), never
its path or query, which hold the students' links; a student by their id.
"""

import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("grader.service")
# A route's parameters that are credentials: never logged (the others name what it is).
SECRET_PARAMS = {"token", "secret"}


def line(event: str, **facts: Any) -> None:
    """Log ``event`` with its facts (those not None): searchable as text, fields of
    their own in JSON."""
    given = {key: value for key, value in facts.items() if value is not None}
    log.info("%s %s", event, " ".join(f"{key}={_shown(value)}" for key, value in given.items()),
             extra={"event": event, **given})


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def seconds(start: datetime, end: datetime) -> float:
    return round((end - start).total_seconds(), 3)


@dataclass
class JobAttempt:
    """One attempt at grading a job, logged as one line when it ends (``ended``)."""

    job_id: int
    student_id: int
    exercise: str
    attempt: int
    queued_at: datetime  # when the job was queued: the feedback's wait starts there
    started_at: datetime

    def ended(self, outcome: str, now: datetime, report: dict[str, Any] | None = None) -> None:
        """Log the run's line: ``outcome`` (done, error, retry, held, retried_after_load),
        its timings and, for a kept report, its score."""
        facts: dict[str, Any] = {
            "job_id": self.job_id, "student_id": self.student_id, "exercise": self.exercise,
            "attempt": self.attempt, "outcome": outcome,
            "waited_s": seconds(self.queued_at, self.started_at),
            "graded_s": seconds(self.started_at, now)}
        if report is not None:
            facts.update(status=report["status"], score=report["score"],
                         max_score=report["max_score"], feedback_s=seconds(self.queued_at, now))
        line("job", **facts)


class Requests:
    """One line per HTTP request: method, route, the route's parameters that are no
    credential, the student (where a page found one), status and milliseconds."""

    def __init__(self, app: ASGIApp, routes: list[BaseRoute]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        status = 500  # unless a response starts

        async def noting(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting)
        finally:
            route, params = self._route(scope)
            line("request", method=scope["method"], route=route, status=status,
                 ms=round((time.monotonic() - started) * 1000, 1),
                 # put in the request's state by the page that found the student
                 student_id=scope.get("state", {}).get("student_id"), **params)

    def _route(self, scope: Scope) -> tuple[str, dict[str, Any]]:
        """The route's template and its parameters that are not credentials, as the
        router picks it (the first full match, else the first of the path alone); "-"
        for a path no route takes (it may be a mistyped link)."""
        found = []
        for route in self.routes:
            matched, child = route.matches(scope)
            if matched != Match.NONE:
                found.append((matched != Match.FULL, route, child))
        if not found:
            return "-", {}
        _, route, child = min(found, key=lambda each: each[0])
        params = child.get("path_params", {})
        return getattr(route, "path", "-"), {key: value for key, value in params.items()
                                             if key not in SECRET_PARAMS}
