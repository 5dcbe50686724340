"""The staff's pages for manual grading: an exercise's rubric (made, changed,
removed) and its items applied to an attempt with a click, and comments on lines
of an attempt's files. Whoever may grade in the course (a TA too) applies items,
makes new ones and comments; changing or removing an item, which changes every
attempt it is applied to, is the instructor's."""

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader.service.comments import Comments
from grader.service.core import Service
from grader.service.models import Submission
from grader.service.refused import Refused
from grader.service.rubrics import Rubrics, signed
from grader.service.webpages import Scope, StaffPages

COURSE = "/i/c/{course:int}"
ATTEMPT = f"{COURSE}/attempts/{{attempt:int}}"


def rubrics(service: Service) -> Rubrics:
    maxes = {one.id: one.max_score for one in service.exercises.values()}
    return Rubrics(service.sessions, service.now, maxes, service.rescored)


def comments(service: Service) -> Comments:
    return Comments(service.sessions, service.now, service.store)


def shown(service: Service, submission: Submission, course_id: int) -> dict[str, Any]:
    """What an attempt's page shows of its marking: the items applied (``rubric_marks``, each
    with its points signed, and ``applied``, their ids), the comments on its lines by
    file, and the exercise's ``rubric`` (the staff's page offers its items)."""
    items = rubrics(service).items(course_id, submission.exercise_id)
    return {"rubric_marks": [(signed(mark.item.points), mark) for mark in submission.marks],
            "applied": {mark.item_id for mark in submission.marks},
            "comments": comments(service).of(submission),
            "rubric": [(signed(item.points), item) for item in items]}


def _number(form: FormData, name: str) -> float:
    try:
        return float(str(form.get(name) or "").strip().replace("\u2212", "-"))
    except ValueError:
        raise Refused(f"the {name} is a number", 400) from None


class Marking:
    def __init__(self, web: StaffPages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        return [Route(f"{ATTEMPT}/rubric", self.toggle, methods=["POST"]),
                Route(f"{ATTEMPT}/rubric/new", self.new_item, methods=["POST"]),
                Route(f"{ATTEMPT}/comments", self.comment, methods=["POST"]),
                Route(f"{ATTEMPT}/comments/{{comment:int}}/remove", self.uncomment,
                      methods=["POST"]),
                Route(f"{COURSE}/rubric/{{item:int}}", self.change_item, methods=["POST"])]

    async def _attempt(self, request: Request, what: str) -> tuple[Scope, FormData,
                                                                   Submission]:
        scope, form = await self.web.scope_form(request, what)
        found = await run_in_threadpool(self.service.students.submission,
                                        request.path_params["attempt"])
        if found is None:
            raise HTTPException(404)
        await self.web.course_student(scope, found.student_id)  # 404 for another course's
        return scope, form, found

    async def _done(self, scope: Scope, submission: Submission, said: str,
                    work: Any, *args: Any) -> Response:
        """Run ``work``: back to the attempt's page saying ``said``, or why not."""
        back = f"{scope.base}/attempts/{submission.id}"
        try:
            await run_in_threadpool(work, *args)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        return RedirectResponse(f"{back}?saved={said}#marking", status_code=303)

    async def toggle(self, request: Request) -> Response:
        """Apply a rubric item to the attempt, or take it off."""
        scope, form, submission = await self._attempt(request, "grade")
        item = str(form.get("item") or "")
        if not item.isdigit():
            raise HTTPException(400, "No rubric item was chosen.")
        return await self._done(scope, submission, "Saved: the student sees the new score.",
                                rubrics(self.service).toggle, scope.course.id, submission,
                                int(item), scope.staff)

    async def new_item(self, request: Request) -> Response:
        """A new item of the exercise's rubric, applied to this attempt."""
        scope, form, submission = await self._attempt(request, "grade")
        try:
            points = _number(form, "points")
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status,
                                    f"{scope.base}/attempts/{submission.id}")
        return await self._done(
            scope, submission, "Saved: the item is in the rubric, applied here.",
            lambda: rubrics(self.service).add(
                scope.course.id, submission.exercise_id, str(form.get("name") or ""), points,
                str(form.get("text") or ""), scope.staff, submission))

    async def comment(self, request: Request) -> Response:
        scope, form, submission = await self._attempt(request, "grade")
        line = str(form.get("line") or "").strip()
        if not line.isdigit():
            return self.web.message("Not saved", "The line is a number.", 400,
                                    f"{scope.base}/attempts/{submission.id}")
        return await self._done(scope, submission, "Saved: the student sees the comment.",
                                comments(self.service).add, scope.course.id, submission,
                                str(form.get("file") or ""), int(line),
                                str(form.get("text") or ""), scope.staff)

    async def uncomment(self, request: Request) -> Response:
        scope, _, submission = await self._attempt(request, "grade")
        return await self._done(scope, submission, "Comment removed.",
                                comments(self.service).remove, scope.course.id, submission,
                                request.path_params["comment"], scope.staff)

    async def change_item(self, request: Request) -> Response:
        """Change an item (new points, name or sentence), or remove it: the instructor's."""
        scope, form = await self.web.scope_form(request, "manage")
        item_id = request.path_params["item"]
        exercise = str(form.get("exercise") or "")
        back = f"{scope.base}/exercises/{exercise}#rubric"
        kept = rubrics(self.service)
        try:
            if form.get("remove"):
                await run_in_threadpool(kept.remove, scope.course.id, item_id, scope.staff)
            else:
                await run_in_threadpool(kept.change, scope.course.id, item_id,
                                        str(form.get("name") or ""), _number(form, "points"),
                                        str(form.get("text") or ""), scope.staff)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        return RedirectResponse(back, status_code=303)
