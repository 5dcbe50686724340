"""The instructor's similarity pages: per exercise, each active student's latest
hand-in against every other's (see ``grader.similarity``)."""

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from grader import similarity
from grader.exercises import Exercise
from grader.service.core import Service
from grader.service.models import Student
from grader.service.webpages import Pages, Scope


def starter(exercise: Exercise) -> str:
    """The exercise's starter code, as ``similarity.joined`` joins a student's."""
    return similarity.joined({path.name: path.read_text(encoding="utf-8", errors="replace")
                              for path in sorted(exercise.starter.glob("*.py"))})


def latest(service: Service, course_id: int,
           exercise_id: str) -> tuple[dict[str, str], dict[str, Student]]:
    """Each of the course's active students' latest hand-in of the exercise as one
    text, by student id."""
    codes: dict[str, str] = {}
    students: dict[str, Student] = {}
    for student in service.students(course_id):
        taken = service.attempts(student.id, exercise_id) if student.active else []
        if taken:
            newest = taken[-1]
            codes[str(student.id)] = similarity.joined({
                stored.name: service.store.get(stored.sha256).decode("utf-8", "replace")
                for stored in newest.files})
            students[str(student.id)] = student
    return codes, students


def pairs(service: Service, course_id: int,
          exercise: Exercise) -> tuple[list[similarity.Pair], dict[str, Student]]:
    codes, students = latest(service, course_id, exercise.id)
    return similarity.similar(codes, starter(exercise)), students


class Similar:
    def __init__(self, web: Pages) -> None:
        self.web = web
        self.service = web.service

    def routes(self) -> list[Route]:
        page = "/i/c/{course:int}/similarity/{exercise}"
        return [Route(page, self.page, methods=["GET"]),
                Route(f"{page}/{{left:int}}/{{right:int}}", self.pair, methods=["GET"])]

    async def exercise(self, request: Request) -> tuple[Scope, Exercise]:
        scope = await self.web.scope(request)
        found = self.service.exercises.get(request.path_params["exercise"])
        if found is None:
            raise HTTPException(404)
        return scope, found

    async def page(self, request: Request) -> Response:
        scope, exercise = await self.exercise(request)
        found, students = await run_in_threadpool(pairs, self.service, scope.course.id,
                                                  exercise)
        return self.web.course_page(scope, "similarity.html", exercise=exercise, pairs=found,
                                    students=students, threshold=similarity.THRESHOLD)

    async def pair(self, request: Request) -> Response:
        scope, exercise = await self.exercise(request)
        found, students = await run_in_threadpool(pairs, self.service, scope.course.id,
                                                  exercise)
        wanted = (str(request.path_params["left"]), str(request.path_params["right"]))
        for pair in found:
            if (pair.left, pair.right) == wanted:
                return self.web.course_page(scope, "similarity_pair.html", exercise=exercise,
                                            pair=pair, students=students)
        raise HTTPException(404)
