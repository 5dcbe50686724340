"""The pages of a regrade seen first (see ``regrade``): "regrade all" of an exercise
starts a preview, whose page shows whose score would change, old to new, while
the rest is graded; the instructor applies it or discards it."""

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader.service.core import Service
from grader.service.refused import Refused
from grader.service.regrade import Regrades
from grader.service.webpages import Pages

PREVIEWS = "/i/c/{course:int}/regrade/{exercise}/preview"
PREVIEW = f"{PREVIEWS}/{{preview:int}}"


def regrades(service: Service) -> Regrades:
    return Regrades(service.sessions, service.now, service.options.version, service.queue,
                    service.queued, service.students, service.term, service.rescored)


class RegradePages:
    def __init__(self, web: Pages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        return [Route(PREVIEWS, self.start, methods=["POST"]),
                Route(PREVIEW, self.page, methods=["GET"]),
                Route(f"{PREVIEW}/apply", self.decide, methods=["POST"]),
                Route(f"{PREVIEW}/discard", self.decide, methods=["POST"])]

    def _exercise(self, request: Request) -> str:
        exercise = request.path_params["exercise"]
        if exercise not in self.service.exercises:
            raise HTTPException(404)
        return str(exercise)

    async def start(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        exercise = self._exercise(request)
        made = await run_in_threadpool(regrades(self.service).start, scope.course.id,
                                       exercise, bool(form.get("force")), scope.staff)
        return RedirectResponse(f"{scope.base}/regrade/{exercise}/preview/{made}",
                                status_code=303)

    async def page(self, request: Request) -> Response:
        scope = await self.web.scope(request, "manage")
        exercise = self._exercise(request)
        try:
            seen = await run_in_threadpool(regrades(self.service).shown, scope.course.id,
                                           request.path_params["preview"])
        except Refused as why:
            raise HTTPException(why.status, f"{why}.") from None
        if seen.preview.exercise_id != exercise:
            raise HTTPException(404)
        return self.web.course_page(scope, "regrade_preview.html", seen=seen,
                                    exercise=self.service.exercises[exercise],
                                    where=await run_in_threadpool(self.service.access.zone,
                                                                  scope.course.id),
                                    saved=request.query_params.get("saved"))

    async def decide(self, request: Request) -> Response:
        scope, _ = await self.web.scope_form(request, "manage")
        exercise = self._exercise(request)
        preview = request.path_params["preview"]
        back = f"{scope.base}/regrade/{exercise}/preview/{preview}"
        kept = regrades(self.service)
        applying = request.url.path.endswith("/apply")
        try:
            if applying:
                await run_in_threadpool(kept.apply, scope.course.id, preview, scope.staff)
            else:
                await run_in_threadpool(kept.discard, scope.course.id, preview, scope.staff)
        except Refused as why:
            return self.web.message("Not done", f"{why}.", why.status, back)
        said = "Applied: the new scores count." if applying else \
            "Discarded: the scores stay as they were."
        return RedirectResponse(f"{back}?saved={said}", status_code=303)
