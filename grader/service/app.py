"""The web app (Starlette): students' pages under /s/<token>, the instructor's under /i.

Every page is a Jinja2 template with autoescape on; every form carries a CSRF
token (see ``tokens``); uploads are capped while they are read, and cut off
when they stall (``BodyDeadline``); tokens and files never reach the log
(uvicorn's access log is off, see ``server``).
"""

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from grader.intake import Rejected
from grader.service import gradebook, pages, tokens, uploads
from grader.service.core import Refused, Service
from grader.service.lti.web import Tool
from grader.service.models import ExerciseSetting, Student
from grader.service.pool import Pool

log = logging.getLogger("grader.service")
COOKIE = "instructor"
HEADER = "x-instructor-secret"
MAX_FILES = 20
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),  # pages hold links that are secrets
]


def _templates() -> Environment:
    env = Environment(loader=PackageLoader("grader.service", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["g"] = lambda value: "-" if value is None else f"{value:g}"
    return env


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
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
        found = await run_in_threadpool(self.service.student, request.path_params["token"])
        if found is None:
            raise HTTPException(404)
        return found


    async def student_page(self, request: Request) -> Response:
        student = await self.student(request)
        views = await run_in_threadpool(pages.exercises_of, self.service, student.id)
        return self.page("student.html", student=student, views=views,
                         token=request.path_params["token"],
                         csrf=self.service.csrf(_student_subject(student)),
                         cap_kb=self.service.options.max_upload // 1024)

    async def student_attempt(self, request: Request) -> Response:
        student = await self.student(request)
        submission = await run_in_threadpool(self.service.submission,
                                             request.path_params["attempt"], student.id)
        if submission is None:
            raise HTTPException(404)
        setting = self.service.setting(submission.exercise_id)
        return self.page("attempt.html", attempt=pages.attempt(submission, setting, True),
                         back=f"/s/{request.path_params['token']}")

    async def submit(self, request: Request) -> Response:
        student = await self.student(request)
        token = request.path_params["token"]
        exercise = self.service.exercises.get(request.path_params["exercise"])
        if exercise is None:
            raise HTTPException(404)
        form = await self.form(request)
        if not self.service.csrf_ok(_student_subject(student), form.get("csrf")):
            raise HTTPException(403, "This form has expired or was not sent from your page: "
                                     "reload your page and hand in again.")
        files = [(item.filename or "", await item.read()) for item in form.getlist("files")
                 if isinstance(item, UploadFile)]
        await form.close()
        back = f"/s/{token}"
        try:
            taken = await run_in_threadpool(uploads.take, exercise, files)
            await run_in_threadpool(self.service.submit, student.id, exercise.id, taken)
        except Rejected as why:
            return self.message("Not handed in", f"{why}. Nothing was stored.", 400, back)
        except Refused as why:
            return self.message("Not handed in", f"{why}. Nothing was stored.", why.status,
                                back)
        return RedirectResponse(f"{back}#{exercise.id}", status_code=303)

    # -- the instructor -----------------------------------------------------------

    def instructor_secret(self, request: Request) -> str:
        secret = request.headers.get(HEADER) or request.cookies.get(COOKIE)
        if not self.service.is_instructor(secret):
            raise HTTPException(403, "This page is the instructor's: open your instructor "
                                     "link first.")
        assert secret is not None
        return secret

    async def instructor_form(self, request: Request) -> FormData:
        secret = self.instructor_secret(request)
        form = await self.form(request)
        if not self.service.csrf_ok(_instructor_subject(secret), form.get("csrf")):
            raise HTTPException(403, "This form has expired: reload the page and try again.")
        return form

    async def login(self, request: Request) -> Response:
        secret = request.path_params["secret"]
        if not self.service.is_instructor(secret):
            raise HTTPException(404)
        # The secret leaves the address bar: the cookie carries it from here on.
        response = RedirectResponse("/i", status_code=303)
        response.set_cookie(COOKIE, secret, httponly=True, samesite="strict", path="/i",
                            secure=request.url.scheme == "https")
        return response

    async def dashboard(self, request: Request) -> Response:
        secret = self.instructor_secret(request)
        table = await run_in_threadpool(gradebook.rows, self.service)
        counts = await run_in_threadpool(self.service.queue_counts)
        settings = [(exercise, self.service.setting(exercise.id))
                    for exercise in self.service.exercises.values()]
        return self.page("instructor.html", table=table, counts=counts, settings=settings,
                         held=self.service.held(), exercises=list(self.service.exercises.values()),
                         csrf=self.service.csrf(_instructor_subject(secret)),
                         rules=("best", "last"))

    async def instructor_student(self, request: Request) -> Response:
        self.instructor_secret(request)
        student = await run_in_threadpool(self._student_by_id, request.path_params["student"])
        views = await run_in_threadpool(pages.exercises_of, self.service, student.id, True)
        return self.page("instructor_student.html", student=student, views=views)

    def _student_by_id(self, student_id: int) -> Student:
        with self.service.sessions() as session:
            found = session.get(Student, student_id)
        if found is None:
            raise HTTPException(404)
        return found

    async def roster(self, request: Request) -> Response:
        form = await self.instructor_form(request)
        given = form.get("roster")
        data = await given.read() if isinstance(given, UploadFile) else b""
        await form.close()
        try:
            rows = gradebook.parse_roster(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as why:
            return self.message("Roster not imported", str(why), 400, "/i")
        added = await run_in_threadpool(self.service.import_roster, rows)
        base = str(request.base_url).rstrip("/")
        return self.page("roster_links.html", added=added, base=base)

    async def save_setting(self, request: Request) -> Response:
        form = await self.instructor_form(request)
        try:
            setting = ExerciseSetting(
                exercise_id=request.path_params["exercise"],
                deadline=_moment(form.get("deadline")),
                hard_deadline=_moment(form.get("hard_deadline")),
                late_penalty=float(str(form.get("late_penalty") or 0)) / 100,
                min_minutes=float(str(form.get("min_minutes") or 0)),
                score_rule=str(form.get("score_rule") or "best"))
            await run_in_threadpool(self.service.save_setting, setting)
        except ValueError:
            return self.message("Not saved", "Give dates as YYYY-MM-DDTHH:MM (UTC) and "
                                             "numbers as numbers.", 400, "/i")
        except Refused as why:
            return self.message("Not saved", str(why), why.status, "/i")
        return RedirectResponse("/i", status_code=303)

    async def regrade(self, request: Request) -> Response:
        await self.instructor_form(request)
        exercise = request.path_params["exercise"]
        if exercise not in self.service.exercises:
            raise HTTPException(404)
        queued = await run_in_threadpool(self.service.regrade, exercise)
        return self.message("Regrading", f"{queued} submission(s) of {exercise} queued to be "
                                         "graded again; their earlier reports are kept.", 200,
                            "/i")

    async def csv(self, request: Request) -> Response:
        self.instructor_secret(request)
        table = await run_in_threadpool(gradebook.rows, self.service)
        shown = list(self.service.exercises.values())
        canvas = request.url.path.endswith("canvas.csv")
        text = (gradebook.canvas_csv if canvas else gradebook.grades_csv)(table, shown)
        name = "canvas-gradebook.csv" if canvas else "grades.csv"
        return Response(text, media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    async def home(self, request: Request) -> Response:
        return self.message("minimax-grader", "Open the personal link your instructor gave "
                                              "you.", 200)

    async def style(self, request: Request) -> Response:
        css = self.env.loader.get_source(self.env, "style.css")[0]  # type: ignore[union-attr]
        return Response(css, media_type="text/css")

    async def error(self, request: Request, exc: Exception) -> Response:
        if not isinstance(exc, HTTPException):
            return self.message("Error", "Something went wrong on our side; nothing you "
                                         "sent was lost. Try again later.", 500)
        # A 404 says nothing of what was looked for, nor whether it exists.
        detail = "There is no such page." if exc.status_code == 404 else exc.detail
        title = {403: "Not allowed", 404: "Not found", 408: "Too slow",
                 413: "Too large"}.get(exc.status_code, "Error")
        return self.message(title, detail, exc.status_code)


def _student_subject(student: Student) -> str:
    """What a student's forms' CSRF token is made from: their token's hash."""
    return f"student:{student.token_hash}"


def _instructor_subject(secret: str) -> str:
    return f"instructor:{tokens.hashed(secret)}"


def _moment(value: object) -> datetime | None:
    text = str(value or "").strip()
    return datetime.fromisoformat(text) if text else None


def build(service: Service, pool: Pool | None = None) -> ASGIApp:
    """The app; ``pool`` (started and stopped with the app) grades in the background."""
    web = Web(service)
    lti = Tool(web)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if pool:
            pool.start()
        await run_in_threadpool(lti.start)
        try:
            yield
        finally:
            await run_in_threadpool(lti.stop)
            if pool:
                await run_in_threadpool(pool.stop)

    Endpoint = Callable[[Request], Awaitable[Response]]
    routes: list[tuple[str, Endpoint, list[str]]] = [
        ("/", web.home, ["GET"]),
        ("/style.css", web.style, ["GET"]),
        ("/s/{token}", web.student_page, ["GET"]),
        ("/s/{token}/attempts/{attempt:int}", web.student_attempt, ["GET"]),
        ("/s/{token}/submit/{exercise}", web.submit, ["POST"]),
        ("/i", web.dashboard, ["GET"]),
        ("/i/grades.csv", web.csv, ["GET"]),
        ("/i/canvas.csv", web.csv, ["GET"]),
        ("/i/students/{student:int}", web.instructor_student, ["GET"]),
        ("/i/roster", web.roster, ["POST"]),
        ("/i/settings/{exercise}", web.save_setting, ["POST"]),
        ("/i/regrade/{exercise}", web.regrade, ["POST"]),
        ("/i/{secret}", web.login, ["GET"]),  # last: the paths above are no secret
    ]
    app = Starlette(routes=[*lti.routes(), *(Route(path, endpoint, methods=methods)
                                             for path, endpoint, methods in routes)],
                    exception_handlers={HTTPException: web.error, 500: web.error},
                    lifespan=lifespan)
    # Outermost: error pages get the headers too, and every response is seen by the
    # deadline's check of an unread body.
    options = service.options
    return BodyDeadline(SecurityHeaders(app), options.body_idle_seconds, options.body_seconds)
