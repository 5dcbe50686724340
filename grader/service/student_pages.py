"""A student's own pages, under /s/<token> (the token is the student's link):
their exercises and attempts, the status their page's script polls, an attempt's
report and files, a hand-in, and a regrade request."""

import time

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from grader.intake import Rejected
from grader.service import code_view, forms, pages, uploads
from grader.service.models import Student, Submission
from grader.service.refused import Refused
from grader.service.webpages import StudentSide

STATUS_WAIT = 5.0  # seconds a student's status may wait for a change (see student_status)
SAVED = {"request": "Your regrade request was sent to your instructor; their answer "
                    "shows here."}


class StudentPages:
    def __init__(self, web: StudentSide) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        own, attempt = "/s/{token}", "/s/{token}/attempts/{attempt:int}"
        return [Route(own, self.student_page, methods=["GET"]),
                Route(f"{own}/status.json", self.student_status, methods=["GET"]),
                Route(attempt, self.student_attempt, methods=["GET"]),
                Route(f"{attempt}/files.zip", self.student_files, methods=["GET"]),
                Route(f"{attempt}/request", self.regrade_request, methods=["POST"]),
                Route(f"{own}/submit/{{exercise}}", self.submit, methods=["POST"])]

    async def student_page(self, request: Request) -> Response:
        student = await self.web.student(request)
        views = await run_in_threadpool(pages.exercises_of, self.service, student)
        where = await run_in_threadpool(self.service.access.zone, student.course_id)
        return self.web.page("student.html", student=student, views=views, where=where,
                         token=request.path_params["token"],
                         pending=any(view.pending for view in views),
                         saved=_handed_in(views, request.query_params.get("handed")),
                         csrf=self.service.access.csrf(forms.student_subject(student)),
                         cap_kb=self.service.options.max_upload // 1024,
                         late_days=await run_in_threadpool(self.service.term.late_days, student))

    async def student_status(self, request: Request) -> Response:
        """The student page's states, which its script asks for while grading goes on.

        Given ``since`` (the ``seen`` of an earlier answer), the answer waits, up to
        STATUS_WAIT seconds, until something is no longer as then or nothing waits: the
        page hears of a report as it is kept, without asking again and again."""
        student = await self.web.student(request)
        since = request.query_params.get("since")
        ends = time.monotonic() + STATUS_WAIT
        # Grading hosts keep their reports from other processes: looked for every second.
        every = 1.0 if self.service.options.broker else STATUS_WAIT
        kept = self.service.jobs.reports_kept
        while True:
            seen = kept.count(student.id)  # before the look: one kept during it ends the wait
            answer = await run_in_threadpool(pages.status, self.service, student)
            left = ends - time.monotonic()
            if not answer["pending"] or answer["seen"] != since or left <= 0:
                return JSONResponse(answer)
            await kept.wait(student.id, seen, min(left, every))

    async def _submission(self, request: Request) -> tuple[Student, Submission]:
        student = await self.web.student(request)
        submission = await run_in_threadpool(self.service.students.submission,
                                             request.path_params["attempt"], student.id)
        if submission is None:
            raise HTTPException(404)
        return student, submission

    async def student_attempt(self, request: Request) -> Response:
        student, submission = await self._submission(request)
        back = f"/s/{request.path_params['token']}"
        return await self.web.attempt_page(
            "attempt.html", submission, back, forms.student_subject(student), student.course_id,
            request_action=f"{back}/attempts/{submission.id}/request",
            saved=SAVED.get(request.query_params.get("saved", "")))

    async def student_files(self, request: Request) -> Response:
        _, submission = await self._submission(request)
        return await run_in_threadpool(code_view.download, self.service.store, submission)

    async def regrade_request(self, request: Request) -> Response:
        student, submission = await self._submission(request)
        form = await self.web.form(request)
        if not self.service.access.csrf_ok(forms.student_subject(student), form.get("csrf")):
            raise HTTPException(403, "This form has expired: reload the page and try again.")
        back = f"/s/{request.path_params['token']}/attempts/{submission.id}"
        try:
            await run_in_threadpool(self.service.term.add_note, submission.id, "request",
                                    str(form.get("text") or ""), student.name)
        except Refused as why:
            return self.web.message("Not sent", str(why), why.status, back)
        return RedirectResponse(f"{back}?saved=request", status_code=303)

    async def submit(self, request: Request) -> Response:
        student = await self.web.student(request)
        token = request.path_params["token"]
        exercise = self.service.exercises.get(request.path_params["exercise"])
        if exercise is None:
            raise HTTPException(404)
        form = await self.web.form(request)
        if not self.service.access.csrf_ok(forms.student_subject(student), form.get("csrf")):
            raise HTTPException(403, "This form has expired or was not sent from your page: "
                                     "reload your page and hand in again.")
        files = [(item.filename or "", await item.read()) for item in form.getlist("files")
                 if isinstance(item, UploadFile)]
        await form.close()
        back = f"/s/{token}"
        try:
            taken = await run_in_threadpool(uploads.take, exercise, files,
                                            self.service.scratch)
            await run_in_threadpool(self.service.jobs.submit, student.id, exercise.id, taken)
        except Rejected as why:
            return self.web.message("Not handed in", f"{why}. Nothing was stored.", 400, back)
        except Refused as why:
            return self.web.message("Not handed in", f"{why}. Nothing was stored.", why.status,
                                back)
        return RedirectResponse(f"{back}?handed={exercise.id}#{exercise.id}", status_code=303)


def _handed_in(views: list[pages.ExerciseView], exercise_id: str | None) -> str | None:
    """The confirmation of a hand-in, on the page it leads back to."""
    for view in views:
        if view.exercise.id == exercise_id and view.attempts:
            newest = view.attempts[0]
            return (f"Handed in: attempt #{newest.number} at {exercise_id}, received "
                    f"{newest.received}. Its report shows here once graded.")
    return None
