"""The course's late days page: how many each student may spend (the instructor
gives them), what each has spent and where, and the days a staff member sets as
spent on one student's exercise (whoever may grade: a TA too)."""

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader.service import gradebook
from grader.service.core import Service
from grader.service.latedays import LateDays
from grader.service.refused import Refused
from grader.service.webpages import StaffPages

PAGE = "/i/c/{course:int}/late-days"


def late_days(service: Service) -> LateDays:
    return LateDays(service.sessions, service.now, service.exercises, service.rescored)


def _days(value: object) -> int | None:
    """A form's number of days; None when empty (as the hand-ins spend them)."""
    text = str(value or "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise Refused("the late days are a whole number", 400)
    return int(text)


class LateDayPages:
    def __init__(self, web: StaffPages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        return [Route(PAGE, self.page, methods=["GET"]),
                Route(PAGE, self.give, methods=["POST"]),
                Route(f"{PAGE}/set", self.set, methods=["POST"])]

    async def page(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        table = await run_in_threadpool(gradebook.rows, self.service, scope.course.id)
        return self.web.course_page(
            scope, "late_days.html", table=table,
            allowance=await run_in_threadpool(late_days(self.service).allowance,
                                              scope.course.id),
            exercises=list(self.service.exercises.values()),
            saved=request.query_params.get("saved"))

    async def give(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        try:
            days = _days(form.get("days")) or 0
            await run_in_threadpool(late_days(self.service).give, scope.course.id, days,
                                    scope.staff)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, f"{scope.base}/late-days")
        return RedirectResponse(f"{scope.base}/late-days?saved=Each student has {days} late "
                                "day(s).", status_code=303)

    async def set(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "grade")
        back = f"{scope.base}/late-days"
        student_id = str(form.get("student") or "")
        student = await self.web.course_student(
            scope, int(student_id) if student_id.isdigit() else 0)
        exercise = str(form.get("exercise") or "")
        try:
            days = _days(form.get("days"))
            await run_in_threadpool(late_days(self.service).set, scope.course.id, student,
                                    exercise, days, scope.staff)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        said = "as their hand-ins spend them" if days is None else f"{days} day(s)"
        return RedirectResponse(f"{back}?saved=Late days of {student.name} at {exercise}: "
                                f"{said}.", status_code=303)
