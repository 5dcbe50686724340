"""The course staff's pages for the roster, one student and one attempt: a roster's
import, extensions, new links, deactivation, manual scores (and their removal) and
comments, answers and regrades. A TA grades (notes, extensions, regrades); the
roster, links and deactivation are the instructor's."""

from functools import partial

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader.service import code_view, forms, pages, roster
from grader.service.models import Submission
from grader.service.refused import Refused
from grader.service.webpages import Scope, StaffPages

COURSE = "/i/c/{course:int}"


class StudentsAndAttempts:
    def __init__(self, web: StaffPages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        student = f"{COURSE}/students/{{student:int}}"
        attempt = f"{COURSE}/attempts/{{attempt:int}}"
        return [Route(student, self.student, methods=["GET"]),
                Route(f"{COURSE}/roster", self.roster, methods=["POST"]),
                Route(f"{student}/link", self.new_link, methods=["POST"]),
                Route(f"{student}/active", self.active, methods=["POST"]),
                Route(f"{student}/extension/{{exercise}}", self.extend, methods=["POST"]),
                Route(f"{student}/regrade/{{exercise}}", self.regrade_student,
                      methods=["POST"]),
                Route(attempt, self.attempt, methods=["GET"]),
                Route(f"{attempt}/files.zip", self.files, methods=["GET"]),
                Route(f"{attempt}/notes", self.note, methods=["POST"]),
                Route(f"{attempt}/unscore", self.unscore, methods=["POST"]),
                Route(f"{attempt}/regrade", self.regrade_attempt, methods=["POST"])]

    async def submission(self, request: Request, scope: Scope) -> Submission:
        """The path's attempt, when it is one of the course's students'."""
        found = await run_in_threadpool(self.service.students.submission,
                                        request.path_params["attempt"])
        if found is None:
            raise HTTPException(404)
        await self.web.course_student(scope, found.student_id)  # 404 for another course's
        return found

    async def student_form(self, request: Request, what: str) -> tuple[Scope, int, FormData]:
        scope, form = await self.web.scope_form(request, what)
        student = await self.web.course_student(scope, request.path_params["student"])
        return scope, student.id, form

    async def new_link(self, request: Request) -> Response:
        scope, student_id, _ = await self.student_form(request, "manage")
        token = await run_in_threadpool(self.service.students.new_link, student_id, scope.staff)
        student = await self.web.course_student(scope, student_id)
        return self.web.course_page(scope, "roster_links.html", added=[(student, token)],
                                    base=str(request.base_url).rstrip("/"), title="New link",
                                    saved=f"A new link for {student.name}: the old one no "
                                          "longer works.")

    async def active(self, request: Request) -> Response:
        scope, student_id, form = await self.student_form(request, "manage")
        active = form.get("active") == "1"
        await run_in_threadpool(self.service.students.set_active, student_id, active, scope.staff)
        said = "Reactivated" if active else "Deactivated: their link opens nothing, their " \
                                            "work is kept"
        return RedirectResponse(f"{scope.base}/students/{student_id}?saved={said}",
                                status_code=303)

    async def extend(self, request: Request) -> Response:
        scope, student_id, form = await self.student_form(request, "grade")
        exercise = request.path_params["exercise"]
        back = f"{scope.base}/students/{student_id}"
        where = await run_in_threadpool(self.service.access.zone, scope.course.id)
        try:
            await run_in_threadpool(self.service.term.extend, student_id, exercise,
                                    forms.picked(form, "deadline", where),
                                    forms.picked(form, "hard_deadline", where), scope.staff)
        except ValueError as why:
            return self.web.message("Not saved", f"{why}.", 400, back)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        return RedirectResponse(f"{back}?saved=Extension of {exercise} saved.#title-{exercise}",
                                status_code=303)

    async def regrade_student(self, request: Request) -> Response:
        scope, student_id, form = await self.student_form(request, "grade")
        exercise = request.path_params["exercise"]
        if exercise not in self.service.exercises:
            raise HTTPException(404)
        done = await run_in_threadpool(partial(
            self.service.jobs.regrade, scope.course.id, exercise, student_id,
            bool(form.get("force")), scope.staff))
        return self.web.message(f"Regrading {exercise}", str(done), 200,
                                f"{scope.base}/students/{student_id}")

    async def attempt(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        submission = await self.submission(request, scope)
        exercise = self.service.exercises[submission.exercise_id]
        return await self.web.attempt_page(
            "instructor_attempt.html", submission, scope.base, forms.staff_subject(scope.staff),
            scope.course.id, scope=scope, c=scope.base, max_score=exercise.max_score,
            saved=request.query_params.get("saved"))

    async def files(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        submission = await self.submission(request, scope)
        return await run_in_threadpool(code_view.download, self.service.store, submission)

    async def note(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "grade")
        submission = await self.submission(request, scope)
        kind = str(form.get("kind") or "comment")
        back = f"{scope.base}/attempts/{submission.id}"
        if kind == "request":  # the students' own
            return self.web.message("Not saved", "Staff answer requests.", 400, back)
        try:
            score = float(str(form.get("score"))) if kind == "score" else None
            await run_in_threadpool(partial(self.service.term.add_note, submission.id, kind,
                                            str(form.get("text") or ""), scope.staff.name,
                                            score, scope.staff))
        except ValueError:
            return self.web.message("Not saved", "The manual score is a number.", 400, back)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        return RedirectResponse(f"{back}?saved=Saved: the student sees it.", status_code=303)

    async def unscore(self, request: Request) -> Response:
        """Remove the manual score in force for the attempt's exercise."""
        scope, _ = await self.web.scope_form(request, "grade")
        submission = await self.submission(request, scope)
        back = f"{scope.base}/students/{submission.student_id}"
        try:
            await run_in_threadpool(self.service.term.remove_override, submission.id, scope.staff)
        except Refused as why:
            return self.web.message("Not removed", f"{why}.", why.status, back)
        return RedirectResponse(f"{back}?saved=Manual score removed: the grader's scores "
                                f"count again.#title-{submission.exercise_id}", status_code=303)

    async def regrade_attempt(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "grade")
        submission = await self.submission(request, scope)
        done = await run_in_threadpool(partial(
            self.service.jobs.regrade_submissions, [submission.id], bool(form.get("force")),
            scope.staff, scope.course.id, f"attempt #{submission.id}"))
        return self.web.message("Regrading one attempt", str(done), 200,
                                f"{scope.base}/attempts/{submission.id}")

    async def student(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        student = await self.web.course_student(scope, request.path_params["student"])
        views = await run_in_threadpool(pages.exercises_of, self.service, student, False,
                                        True)
        return self.web.course_page(
            scope, "instructor_student.html", student=student, views=views,
            extensions=await run_in_threadpool(self.service.term.extensions, student.id),
            where=await run_in_threadpool(self.service.access.zone, scope.course.id),
            saved=request.query_params.get("saved"))

    async def roster(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        given = form.get("roster")
        data = await given.read() if isinstance(given, UploadFile) else b""
        platform = str(form.get("platform") or "")
        await form.close()
        try:
            rows = roster.parse(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as why:
            return self.web.message("Roster not imported", str(why), 400, scope.base)
        added = await run_in_threadpool(self.service.students.import_roster, scope.course.id,
                                        rows, int(platform) if platform.isdigit() else None,
                                        scope.staff)
        base = str(request.base_url).rstrip("/")
        return self.web.course_page(scope, "roster_links.html", added=added, base=base,
                                title="Roster imported",
                                saved=f"{sum(1 for _, token in added if token)} new student(s), "
                                      f"{sum(1 for _, token in added if not token)} already "
                                      "there.")
