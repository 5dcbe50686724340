"""The gradebook's pages: the gradebook (sorted and filtered by its query, with
each exercise's statistics and the live queue, updated as jobs end), the missing
and late work, each exercise's page (its settings, its statistics and histogram,
extensions for a section or the class, its regrade), the course's time zone, the
students' links in bulk (a CSV download), and the CSV files out."""

import asyncio
import hashlib
import json
import time
from functools import partial
from urllib.parse import quote

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from grader.exercises import Exercise
from grader.service import forms, gradebook, marking, times
from grader.service.lti import platforms as lti_platforms
from grader.service.models import SCORE_RULES, ExerciseSetting
from grader.service.refused import Refused
from grader.service.term import said_setting
from grader.service.webpages import Pages

COURSE = "/i/c/{course:int}"
EXERCISE = f"{COURSE}/exercises/{{exercise}}"
STATUS_WAIT = 5.0  # seconds the gradebook's status may wait for a change
LOOK_EVERY = 1.0  # how often it looks meanwhile (the jobs may end in another process)
DATES = ("release_at", "deadline", "hard_deadline")


class GradebookPages:
    def __init__(self, web: Pages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        return [Route(COURSE, self.gradebook, methods=["GET"]),
                Route(f"{COURSE}/status.json", self.status, methods=["GET"]),
                Route(f"{COURSE}/work", self.work, methods=["GET"]),
                Route(f"{COURSE}/grades.csv", self.csv, methods=["GET"]),
                Route(f"{COURSE}/canvas.csv", self.csv, methods=["GET"]),
                Route(f"{COURSE}/time-zone", self.time_zone, methods=["POST"]),
                Route(f"{COURSE}/links.csv", self.links, methods=["POST"]),
                Route(EXERCISE, self.exercise_page, methods=["GET"]),
                Route(f"{COURSE}/settings/{{exercise}}", self.save_setting, methods=["POST"]),
                Route(f"{EXERCISE}/extension", self.extend, methods=["POST"]),
                Route(f"{COURSE}/regrade/{{exercise}}", self.regrade, methods=["POST"])]

    def _exercise(self, request: Request) -> Exercise:
        found = self.service.exercises.get(request.path_params["exercise"])
        if found is None:
            raise HTTPException(404)
        return found

    # -- the gradebook ------------------------------------------------------------------

    async def gradebook(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        course_id = scope.course.id
        exercises = self.service.exercises
        view = gradebook.View.of(dict(request.query_params), exercises)
        table = await run_in_threadpool(gradebook.rows, self.service, course_id)
        everything = [exercises[view.exercise]] if view.exercise else list(exercises.values())
        # The columns of what students see; the hidden ones' in a table folded away.
        opened = await run_in_threadpool(self.service.term.open_exercises, course_id)
        columns = [one for one in everything if view.exercise or one.id in opened]
        live = await run_in_threadpool(self.service.queue.live, course_id)
        settings = await run_in_threadpool(self._settings, course_id)
        return self.web.course_page(
            scope, "instructor.html", table=view.shown(table), view=view, columns=columns,
            hidden=[one for one in everything if one not in columns],
            sections=gradebook.sections(table), exercises=list(exercises.values()),
            settings=settings, stats=[gradebook.stats(table, one) for one in everything],
            histogram=gradebook.stats(view.shown(table), exercises[view.exercise])
            if view.exercise else None,
            live=live, counts=await run_in_threadpool(self.service.queue.counts),
            held=self.service.jobs.held(), where=await run_in_threadpool(self.service.access.zone,
                                                                         course_id),
            requests=await run_in_threadpool(self.service.term.requests, course_id),
            zones=sorted(times.names()), saved=request.query_params.get("saved"),
            platforms=await run_in_threadpool(lti_platforms.platforms, self.service.sessions))

    def _settings(self, course_id: int) -> dict[str, ExerciseSetting]:
        return {one: self.service.term.setting(course_id, one) for one in self.service.exercises}

    async def status(self, request: Request) -> Response:
        """What the gradebook's script asks for: the course's waiting and running
        jobs, and ``seen``, which names them. Given ``since`` (an earlier ``seen``),
        the answer waits, up to STATUS_WAIT seconds, for them to change."""
        scope = await self.web.scope(request)
        since = request.query_params.get("since")
        ends = time.monotonic() + STATUS_WAIT
        while True:
            live = await run_in_threadpool(self.service.queue.live, scope.course.id)
            jobs = {str(job.id): job.state for job, _, _ in live}
            seen = hashlib.sha256(json.dumps(jobs).encode()).hexdigest()[:16]
            if seen != since or time.monotonic() >= ends:
                return JSONResponse({"pending": bool(jobs), "attempts": jobs, "seen": seen})
            await asyncio.sleep(min(LOOK_EVERY, max(0.0, ends - time.monotonic())))

    async def work(self, request: Request) -> Response:
        """The missing and late work of the exercises open to students now."""
        scope = await self.web.scope(request)
        course_id = scope.course.id
        table = await run_in_threadpool(gradebook.rows, self.service, course_id)
        opened = await run_in_threadpool(self.service.term.open_exercises, course_id)
        shown = [one for one in self.service.exercises.values() if one.id in opened]
        return self.web.course_page(
            scope, "work.html", missing=gradebook.missing(table, shown),
            late=gradebook.late(table, shown), now=self.service.now(),
            where=await run_in_threadpool(self.service.access.zone, course_id))

    async def csv(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        course_id = scope.course.id
        table = await run_in_threadpool(gradebook.rows, self.service, course_id)
        canvas = request.url.path.endswith("canvas.csv")
        if canvas:
            chosen = await run_in_threadpool(gradebook.canvas_exercises, self.service,
                                             course_id)
            text = gradebook.canvas_csv(table, chosen)
        else:
            text = gradebook.grades_csv(table, list(self.service.exercises.values()))
        return _download(text, "canvas-gradebook.csv" if canvas else "grades.csv")

    # -- the course -----------------------------------------------------------------------

    async def time_zone(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        try:
            await run_in_threadpool(self.service.access.set_time_zone, scope.course.id,
                                    str(form.get("time_zone") or ""), scope.staff)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, scope.base)
        return RedirectResponse(f"{scope.base}?saved=Time zone saved.", status_code=303)

    async def links(self, request: Request) -> Response:
        """New links for the active students (of a section, when one is given), as a
        CSV download: the ones before stop working."""
        scope, form = await self.web.scope_form(request, "manage")
        section = str(form.get("section") or "")
        students = await run_in_threadpool(self.service.students.of_course, scope.course.id)
        chosen = [one.id for one in students
                  if one.active and (not section or one.section == section)]
        made = await run_in_threadpool(self.service.students.new_links, scope.course.id, chosen,
                                       scope.staff)
        base = str(request.base_url).rstrip("/")
        lines: list[list[object]] = [["name", "email", "section", "link"]]
        lines += [[student.name, student.email, student.section, f"{base}/s/{token}"]
                  for student, token in made]
        return _download(gradebook.csv_text(lines), "links.csv")

    # -- an exercise ----------------------------------------------------------------------

    async def exercise_page(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        exercise = self._exercise(request)
        course_id = scope.course.id
        table = await run_in_threadpool(gradebook.rows, self.service, course_id)
        setting = await run_in_threadpool(self.service.term.setting, course_id, exercise.id)
        where = await run_in_threadpool(self.service.access.zone, course_id)
        return self.web.course_page(
            scope, "exercise.html", exercise=exercise, setting=setting, where=where,
            said=said_setting(setting, where), histogram=gradebook.stats(table, exercise),
            sections=gradebook.sections(table), rules=SCORE_RULES,
            local={name: times.local(getattr(setting, name), where) for name in DATES},
            extended=[(row.student, row.settings[exercise.id]) for row in table
                      if row.settings[exercise.id] is not setting
                      and _has_extension(row.settings[exercise.id], setting)],
            saved=request.query_params.get("saved"),
            rubric=await run_in_threadpool(marking.rubrics(self.service).items, course_id,
                                           exercise.id))

    async def save_setting(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        exercise = self._exercise(request)
        back = f"{scope.base}/exercises/{exercise.id}"
        where = await run_in_threadpool(self.service.access.zone, scope.course.id)
        canvas = str(form.get("in_canvas") or "")
        try:
            moments = {name: forms.picked(form, name, where) for name in DATES}
            setting = ExerciseSetting(
                course_id=scope.course.id, exercise_id=exercise.id,
                visible=bool(form.get("visible")), **moments,
                late_penalty=forms.percent(form.get("late_penalty")),
                min_minutes=float(str(form.get("min_minutes") or 0)),
                score_rule=str(form.get("score_rule") or "best"),
                column_name=str(form.get("column_name") or "").strip()[:255] or None,
                in_canvas={"yes": True, "no": False}.get(canvas))
            await run_in_threadpool(self.service.term.save_setting, setting, scope.staff)
        except ValueError as why:
            return self.web.message("Not saved", _said_value(why), 400, back)
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        said = quote(f"Saved: {said_setting(setting, where)}.", safe="")
        return RedirectResponse(f"{back}?saved={said}", status_code=303)

    async def extend(self, request: Request) -> Response:
        """An extension for the class, or a section of it: each student's own."""
        scope, form = await self.web.scope_form(request, "grade")
        exercise = self._exercise(request)
        back = f"{scope.base}/exercises/{exercise.id}"
        section = str(form.get("section") or "")
        try:
            where = await run_in_threadpool(self.service.access.zone, scope.course.id)
            dates = (forms.picked(form, "deadline", where),
                     forms.picked(form, "hard_deadline", where))
        except ValueError as why:
            return self.web.message("Not saved", _said_value(why), 400, back)
        students = await run_in_threadpool(self.service.students.of_course, scope.course.id)
        chosen = [one.id for one in students if not section or one.section == section]
        who = f"section {section}" if section else "the class"
        try:
            count = await run_in_threadpool(partial(
                self.service.term.extend_many, scope.course.id, chosen, exercise.id, *dates,
                by=scope.staff, who=who))
        except Refused as why:
            return self.web.message("Not saved", f"{why}.", why.status, back)
        said = f"Extension of {exercise.id} saved for {who}: {count} student(s)."
        return RedirectResponse(f"{back}?saved={quote(said, safe='')}", status_code=303)

    async def regrade(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        exercise = self._exercise(request)
        done = await run_in_threadpool(partial(self.service.jobs.regrade, scope.course.id,
                                               exercise.id, force=bool(form.get("force")),
                                               by=scope.staff))
        return self.web.message(f"Regrading {exercise.id}",
                                f"{done} Earlier reports of other grader versions are "
                                "kept.", 200, f"{scope.base}/exercises/{exercise.id}")


def _has_extension(own: ExerciseSetting, setting: ExerciseSetting) -> bool:
    return (own.deadline, own.hard_deadline) != (setting.deadline, setting.hard_deadline)


def _said_value(why: ValueError) -> str:
    """A form's wrong value in words: the sentence ``times`` gave, or a number's."""
    said = str(why)
    if said.startswith(("could not convert", "invalid literal")):
        return "Give the numbers as numbers (the late penalty as a percentage)."
    return said[0].upper() + said[1:] + "."


def _download(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}"'})
