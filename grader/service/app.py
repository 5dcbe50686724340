"""The web app (Starlette): students' pages under /s/<token>; the staff's under /i, each
course's under /i/c/<course>.

Every page is a Jinja2 template with autoescape on; every form carries a CSRF
token (see ``tokens``); uploads are capped while they are read, and cut off
when they stall (``BodyDeadline``); tokens and files never reach the log
(uvicorn's access log is off, see ``server``).
"""

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from jinja2 import Environment
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Send
from starlette.types import Scope as ASGIScope

from grader import render
from grader.pages import environment
from grader.service import code_view, forms, logs, marking, pages, times
from grader.service.core import Service
from grader.service.courses import Courses
from grader.service.gradebook_pages import GradebookPages
from grader.service.health import Health
from grader.service.latedays_pages import LateDayPages
from grader.service.leaderboard import Leaderboard
from grader.service.lti.web import Tool
from grader.service.models import Student, Submission
from grader.service.people import Staff
from grader.service.pool import Pool
from grader.service.regrade_pages import RegradePages
from grader.service.similar import Similar
from grader.service.staff import StudentsAndAttempts
from grader.service.student_pages import StudentPages
from grader.service.webpages import Scope

log = logging.getLogger("grader.service")
COOKIE = "instructor"  # a staff member's credential
HEADER = "x-instructor-secret"  # the same, for scripts
COURSE = "/i/c/{course:int}"  # a course's pages
MAX_FILES = 20
NOTE_NAMES = {"comment": "Comment", "score": "Manual score", "request": "Regrade request",
              "answer": "Answer"}
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),  # pages hold links that are secrets
]


def _templates() -> Environment:
    env = environment(__package__)  # its own templates, then the shared shell
    env.filters["g"] = lambda value: "-" if value is None else f"{value:g}"
    env.globals.update(when=times.when, local=times.local)
    return env


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: ASGIScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyDeadline:
    """Cuts off a request body that stalls: each part of it must come within ``idle``
    seconds, and the whole within ``whole`` seconds of the first read. uvicorn has
    no such bound (its keep-alive timeout is for a connection between requests),
    so a body sent a byte at a time would hold its connection for ever.

    A cut-off read raises HTTPException 408 in the endpoint reading it; and any
    response that starts before its request's body was read to the end says
    ``connection: close``, so that the server closes the connection instead of
    reading on what is left of the body."""

    def __init__(self, app: ASGIApp, idle: float, whole: float) -> None:
        self.app = app
        self.idle = idle
        self.whole = whole

    async def __call__(self, scope: ASGIScope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        unread = headers.get(b"content-length", b"0") != b"0" or b"transfer-encoding" in headers
        loop = asyncio.get_running_loop()
        ends: float | None = None

        async def bounded() -> Message:
            nonlocal ends, unread
            ends = ends or loop.time() + self.whole
            try:
                message = await asyncio.wait_for(receive(),
                                                 max(0.0, min(self.idle, ends - loop.time())))
            except TimeoutError:
                raise HTTPException(408, f"The upload was too slow: nothing came for "
                                         f"{self.idle:g} s, or it took more than "
                                         f"{self.whole:g} s in all. Nothing was stored: "
                                         "try again.") from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                unread = False
            return message

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start" and unread:
                message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        await self.app(scope, bounded, closing)


class Web:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.env = _templates()

    def page(self, name: str, status: int = 200, **values: Any) -> HTMLResponse:
        return HTMLResponse(self.env.get_template(name).render(**values), status_code=status)

    def message(self, title: str, text: str, status: int, back: str | None = None) -> Response:
        return self.page("message.html", status, title=title, text=text, back=back)

    # -- shared --------------------------------------------------------------------

    async def form(self, request: Request) -> FormData:
        """The request's form, read no further than the upload cap (413 beyond)."""
        cap = self.service.options.max_upload
        too_large = HTTPException(413, f"The upload is too large: the limit is {cap // 1024} KB "
                                       "in all. Nothing was stored.")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            raise too_large
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > cap:
                raise too_large

        async def replay() -> Message:
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        return await Request(request.scope, replay).form(max_files=MAX_FILES,
                                                         max_part_size=cap)

    # -- students ------------------------------------------------------------------

    async def student(self, request: Request) -> Student:
        found = await run_in_threadpool(self.service.students.by_token,
                                        request.path_params["token"])
        if found is None:
            raise HTTPException(404)
        request.state.student_id = found.id  # for the request's log line (see logs)
        return found

    async def attempt_page(self, template: str, submission: Submission, back: str,
                           subject: str, course_id: int, **values: Any) -> Response:
        """An attempt's page: its result, notes, report and files."""
        shown = await run_in_threadpool(pages.one, self.service, submission, course_id)
        files = await run_in_threadpool(code_view.shown, self.service.store,
                                        self.service.highlights, submission)
        where = await run_in_threadpool(self.service.access.zone, course_id)
        owner = await run_in_threadpool(self.service.students.by_id, course_id,
                                        submission.student_id)
        values.update(await run_in_threadpool(marking.shown, self.service, submission,
                                              course_id))
        return self.page(template, attempt=shown, back=back, files=files, where=where,
                         owner=owner,
                         highlight_kb=code_view.HIGHLIGHT_BYTES // 1024,
                         download=f"{back}/attempts/{submission.id}/files.zip",
                         csrf=self.service.access.csrf(subject), marks=render.MARKS,
                         kinds=NOTE_NAMES, **values)

    # -- the staff -----------------------------------------------------------------

    def signed_in(self, request: Request) -> Staff:
        """The staff member whose credential the request carries (its cookie or header)."""
        staff = self.service.access.signed_in(request.headers.get(HEADER)
                                              or request.cookies.get(COOKIE))
        if staff is None:
            raise HTTPException(403, "These pages are the course staff's: open your login "
                                     "link, or the grader from your course in the LMS, first.")
        return staff

    async def scope(self, request: Request, what: str = "view") -> Scope:
        """The path's course and who opened it, when their role there may ``what``
        (people.CAN); 403 otherwise."""
        staff = await run_in_threadpool(self.signed_in, request)
        course = await run_in_threadpool(self.service.access.course, request.path_params["course"])
        if course is None or course.id not in staff.roles:
            raise HTTPException(403, "This course is not one of yours.")
        if not staff.may(course.id, what):
            raise HTTPException(403, "A TA of this course can't do this: ask its instructor.")
        return Scope(staff, course)

    async def scope_form(self, request: Request, what: str) -> tuple[Scope, FormData]:
        scope = await self.scope(request, what)
        form = await self.form(request)
        if not self.service.access.csrf_ok(forms.staff_subject(scope.staff), form.get("csrf")):
            raise HTTPException(403, "This form has expired: reload the page and try again.")
        return scope, form

    def course_page(self, scope: Scope, name: str, status: int = 200,
                    **values: Any) -> Response:
        """A course's page: its address (``c``), who is signed in, the forms' token."""
        return self.page(name, status, scope=scope, c=scope.base,
                         csrf=self.service.access.csrf(forms.staff_subject(scope.staff)), **values)

    async def course_student(self, scope: Scope, student_id: int) -> Student:
        found = await run_in_threadpool(self.service.students.by_id, scope.course.id, student_id)
        if found is None:
            raise HTTPException(404)
        return found

    async def login(self, request: Request) -> Response:
        secret = request.path_params["secret"]
        staff = await run_in_threadpool(self.service.access.signed_in, secret)
        if staff is None:
            raise HTTPException(404)
        # The secret leaves the address bar: the cookie carries it from here on. A
        # launch's opens the course it came from.
        opened = f"/i/c/{staff.course_id}" if staff.course_id in staff.roles else "/i"
        response = RedirectResponse(opened, status_code=303)
        response.set_cookie(COOKIE, secret, httponly=True, samesite="strict", path="/i",
                            secure=request.url.scheme == "https")
        return response

    async def home(self, request: Request) -> Response:
        return self.message("minimax-grader", "Open the personal link your instructor gave "
                                              "you.", 200)

    def _source(self, name: str) -> str:
        return self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]

    async def style(self, request: Request) -> Response:
        return Response(self._source("style.css") + code_view.css(), media_type="text/css")

    async def script(self, request: Request) -> Response:
        return Response(self._source("poll.js"), media_type="text/javascript")

    async def error(self, request: Request, exc: Exception) -> Response:
        if not isinstance(exc, HTTPException):
            return self.message("Error", "Something went wrong on our side; nothing you "
                                         "sent was lost. Try again later.", 500)
        # A 404 says nothing of what was looked for, nor whether it exists.
        detail = "There is no such page." if exc.status_code == 404 else exc.detail
        title = {403: "Not allowed", 404: "Not found", 408: "Too slow",
                 413: "Too large"}.get(exc.status_code, "Error")
        return self.message(title, detail, exc.status_code)


def build(service: Service, pool: Pool | None = None) -> ASGIApp:
    """The app; ``pool`` (started and stopped with the app) grades in the background."""
    web = Web(service)
    lti = Tool(web)
    league = Leaderboard(web)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if pool:
            pool.start()
        await run_in_threadpool(lti.start)
        await run_in_threadpool(league.resume)
        try:
            yield
        finally:
            league.stop()
            await run_in_threadpool(lti.stop)
            if pool:
                await run_in_threadpool(pool.stop)
            # Here, not after uvicorn returns: a stop by a signal ends the process
            # with that signal once the server has stopped.
            await run_in_threadpool(service.close)

    Endpoint = Callable[[Request], Awaitable[Response]]
    routes: list[tuple[str, Endpoint, list[str]]] = [
        ("/", web.home, ["GET"]),
        ("/style.css", web.style, ["GET"]),
        ("/poll.js", web.script, ["GET"]),
        ("/i/{secret}", web.login, ["GET"]),  # last: the paths above are no secret
    ]
    app = Starlette(routes=[*Health(service, pool).routes(), *lti.routes(),
                            *Courses(web).routes(), *GradebookPages(web).routes(),
                            *StudentsAndAttempts(web).routes(), *marking.Marking(web).routes(),
                            *LateDayPages(web).routes(), *RegradePages(web).routes(),
                            *StudentPages(web).routes(),
                            *Similar(web).routes(), *league.routes(),
                            *(Route(path, endpoint, methods=methods)
                              for path, endpoint, methods in routes)],
                    exception_handlers={HTTPException: web.error, 500: web.error},
                    lifespan=lifespan)
    # Outermost: error pages get the headers too, and every response is seen by the
    # deadline's check of an unread body; the log line sees the status it ends with.
    options = service.options
    return logs.Requests(BodyDeadline(SecurityHeaders(app), options.body_idle_seconds,
                                      options.body_seconds), app.routes)
