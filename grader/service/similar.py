"""The instructor's similarity pages: per exercise, each active student's latest
hand-in against every other's (see ``grader.similarity``), the starter and the
solutions published for it (``DATA/published/<exercise id>/``, uploaded on the
page) left out; and the pairs the staff have looked at, each with its note, for
as long as neither student hands in again."""

import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader import similarity
from grader.exercises import Exercise
from grader.service import audit
from grader.service.core import Service
from grader.service.models import SimilarReview, Student
from grader.service.overrides import MAX_NOTE
from grader.service.people import Staff
from grader.service.webpages import Pages, Scope

PUBLISHED = "published"  # DATA/published/<exercise id>/: no evidence of copying
RANKED = 20  # the most similar pairs listed beyond the flagged ones


PUBLISHED_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\.py")  # a file's, no folder


def published_folder(service: Service, exercise: Exercise) -> Path:
    return service.options.data / PUBLISHED / exercise.id


def published(service: Service, exercise: Exercise) -> list[str]:
    """The names of the solutions published for ``exercise`` (its folder's top)."""
    folder = published_folder(service, exercise)
    return sorted(path.name for path in folder.glob("*.py")) if folder.is_dir() else []


def known(service: Service, exercise: Exercise) -> list[str]:
    """The code every student may have used: the starter's and the published solutions'."""
    folder = published_folder(service, exercise)
    return similarity.folder_code(exercise.starter) + (
        similarity.folder_code(folder) if folder.is_dir() else [])


def publish(service: Service, course_id: int, exercise: Exercise,
            files: list[tuple[str, bytes]], by: Staff) -> list[str]:
    """Keep ``files`` (name, content) as solutions published for ``exercise``, a file
    of the same name replaced: their names. A ValueError, and nothing kept, when a
    name is not a plain .py file's, a file is not UTF-8 text or is too large."""
    if not files:
        raise ValueError("choose one or more .py files")
    for name, data in files:
        if not PUBLISHED_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a .py file's name (letters, digits, _ . -)")
        if len(data) > service.options.max_upload:
            raise ValueError(f"{name} is larger than {service.options.max_upload // 1024} KB")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{name} is not UTF-8 text") from None
    folder = published_folder(service, exercise)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files:
        (folder / name).write_bytes(data)
    names = [name for name, _ in files]
    with service.sessions.begin() as session:
        audit.record(session, service.now(), course_id, by, "published solutions added",
                     exercise.id, ", ".join(names))
    return names


def unpublish(service: Service, course_id: int, exercise: Exercise, name: str,
              by: Staff) -> None:
    """Remove one published solution; a ValueError when there is none of that name."""
    if name not in published(service, exercise):
        raise ValueError(f"no published solution is named {name!r}")
    (published_folder(service, exercise) / name).unlink()
    with service.sessions.begin() as session:
        audit.record(session, service.now(), course_id, by, "published solution removed",
                     exercise.id, name)


@dataclass
class Latest:
    """Each of the course's active students' latest hand-in of an exercise, by student id."""

    codes: dict[str, str] = field(default_factory=dict)  # its files as one text
    digests: dict[str, str] = field(default_factory=dict)  # ``Submission.digest``
    students: dict[str, Student] = field(default_factory=dict)


def latest(service: Service, course_id: int, exercise_id: str) -> Latest:
    found = Latest()
    for student in service.students.of_course(course_id):
        taken = service.students.attempts(student.id, exercise_id) if student.active else []
        if taken:
            who, newest = str(student.id), taken[-1]
            found.codes[who] = similarity.joined({
                stored.name: service.store.get(stored.sha256).decode("utf-8", "replace")
                for stored in newest.files})
            found.digests[who] = newest.digest
            found.students[who] = student
    return found


def standing(service: Service, course_id: int, exercise_id: str,
             digests: dict[str, str]) -> dict[tuple[str, str], SimilarReview]:
    """The reviews of pairs whose hand-ins are still both the latest, by pair."""
    with service.sessions() as session:
        rows = session.scalars(select(SimilarReview).where(
            SimilarReview.course_id == course_id, SimilarReview.exercise_id == exercise_id))
        return {(str(row.left_id), str(row.right_id)): row for row in rows
                if digests.get(str(row.left_id)) == row.left_digest
                and digests.get(str(row.right_id)) == row.right_digest}


@dataclass
class Found:
    pairs: list[similarity.Pair]  # ranked: the flagged ones first
    latest: Latest
    reviews: dict[tuple[str, str], SimilarReview]

    @property
    def flagged(self) -> list[similarity.Pair]:
        return [pair for pair in self.pairs if pair.flagged]

    @property
    def others(self) -> list[similarity.Pair]:
        return [pair for pair in self.pairs if not pair.flagged][:RANKED]


def compared(service: Service, course_id: int, exercise: Exercise) -> Found:
    found = latest(service, course_id, exercise.id)
    return Found(similarity.ranked(found.codes, known=known(service, exercise)), found,
                 standing(service, course_id, exercise.id, found.digests))


def review(service: Service, course_id: int, exercise_id: str, pair: tuple[str, str],
           seen: tuple[str, str], note: str, by: Staff) -> None:
    """Note that ``by`` looked at ``pair``'s hand-ins ``seen`` (their digests); a
    ValueError when the note is empty or too long, or either student has handed in
    since."""
    note = note.strip()
    if not note or len(note) > MAX_NOTE:
        raise ValueError(f"say what you found, in at most {MAX_NOTE} characters")
    now = latest(service, course_id, exercise_id).digests
    if (now.get(pair[0]), now.get(pair[1])) != seen:
        raise ValueError("one of the two has handed in since: look at the new hand-in")
    with service.sessions.begin() as session:
        ids = (course_id, exercise_id, int(pair[0]), int(pair[1]))
        row = session.get(SimilarReview, ids) or SimilarReview(
            course_id=course_id, exercise_id=exercise_id, left_id=ids[2], right_id=ids[3])
        row.left_digest, row.right_digest = seen
        row.note, row.author, row.person_id, row.at = note, by.name, by.person.id, service.now()
        session.add(row)
        audit.record(session, row.at, course_id, by, "similar pair reviewed",
                     f"{exercise_id}: students {pair[0]} and {pair[1]}", note)


class Similar:
    def __init__(self, web: Pages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        page = "/i/c/{course:int}/similarity/{exercise}"
        pair = f"{page}/{{left:int}}/{{right:int}}"
        return [Route(page, self.page, methods=["GET"]),
                Route(f"{page}/published", self.publish, methods=["POST"]),
                Route(f"{page}/unpublish", self.unpublish, methods=["POST"]),
                Route(pair, self.pair, methods=["GET"]),
                Route(f"{pair}/review", self.review, methods=["POST"])]

    async def exercise(self, request: Request) -> tuple[Scope, Exercise]:
        return await self.web.scope(request), self.named(request)

    def named(self, request: Request) -> Exercise:
        found = self.service.exercises.get(request.path_params["exercise"])
        if found is None:
            raise HTTPException(404)
        return found

    async def page(self, request: Request) -> Response:
        scope, exercise = await self.exercise(request)
        found = await run_in_threadpool(compared, self.service, scope.course.id, exercise)
        return self.web.course_page(scope, "similarity.html", exercise=exercise, found=found,
                                    students=found.latest.students,
                                    threshold=similarity.THRESHOLD,
                                    min_shared=similarity.MIN_SHARED,
                                    published=published(self.service, exercise),
                                    cap_kb=self.service.options.max_upload // 1024,
                                    saved=request.query_params.get("saved"))

    async def pair(self, request: Request) -> Response:
        scope, exercise = await self.exercise(request)
        found = await run_in_threadpool(compared, self.service, scope.course.id, exercise)
        wanted = (str(request.path_params["left"]), str(request.path_params["right"]))
        for pair in found.pairs:
            if (pair.left, pair.right) == wanted:
                return self.web.course_page(
                    scope, "similarity_pair.html", exercise=exercise, pair=pair,
                    students=found.latest.students, review=found.reviews.get(wanted),
                    digests=found.latest.digests,
                    reviewed=request.query_params.get("reviewed") == "1",
                    where=await run_in_threadpool(self.service.access.zone, scope.course.id))
        raise HTTPException(404)

    async def review(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "grade")
        exercise = self.named(request)
        pair = (str(request.path_params["left"]), str(request.path_params["right"]))
        back = f"{scope.base}/similarity/{exercise.id}/{pair[0]}/{pair[1]}"
        seen = (str(form.get("left_digest") or ""), str(form.get("right_digest") or ""))
        try:
            await run_in_threadpool(partial(review, self.service, scope.course.id, exercise.id,
                                            pair, seen, str(form.get("note") or ""),
                                            scope.staff))
        except ValueError as why:
            return self.web.message("Not saved", f"{str(why).capitalize()}.", 400, back)
        return RedirectResponse(f"{back}?reviewed=1", status_code=303)

    async def publish(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        exercise = self.named(request)
        files = [(item.filename or "", await item.read()) for item in form.getlist("files")
                 if isinstance(item, UploadFile) and item.filename]
        await form.close()
        back = f"{scope.base}/similarity/{exercise.id}"
        try:
            names = await run_in_threadpool(publish, self.service, scope.course.id, exercise,
                                            files, scope.staff)
        except ValueError as why:
            return self.web.message("Not published", f"{str(why).capitalize()}. Nothing was "
                                    "kept.", 400, back)
        return RedirectResponse(f"{back}?saved=Published, left out of the comparison: "
                                f"{', '.join(names)}", status_code=303)

    async def unpublish(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        exercise = self.named(request)
        back = f"{scope.base}/similarity/{exercise.id}"
        name = str(form.get("name") or "")
        try:
            await run_in_threadpool(unpublish, self.service, scope.course.id, exercise, name,
                                    scope.staff)
        except ValueError as why:
            return self.web.message("Not removed", f"{str(why).capitalize()}.", 400, back)
        return RedirectResponse(f"{back}?saved=Removed: {name}", status_code=303)
