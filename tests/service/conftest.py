"""The service in-process: a temporary SQLite database, the local sandbox, a
clock the tests move by hand, and the grading pool run in the test's thread
(``service.jobs.drain()``), so that nothing waits on time."""

import copy
import io
import re
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from grader import exercises, grading
from grader.sandbox import backend
from grader.service import app
from grader.service.core import Service
from grader.service.models import ExerciseSetting
from grader.service.options import Options

ROOT = Path(__file__).resolve().parents[2]
HELPERS = ROOT / "solutions" / "helpers"
FULL_MARKS = HELPERS / "solution" / "minimax_helpers.py"
FLIPPED = HELPERS / "corpus" / "flipped_utilities" / "minimax_helpers.py"
NAME = "minimax_helpers.py"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 12, 0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(scope="session")
def sandbox() -> Iterator[grading.Sandbox]:
    chosen = backend("local")
    yield chosen
    grading.close(chosen)


@pytest.fixture(scope="session")
def graded(sandbox: grading.Sandbox, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The real reports of the full-marks solution and of a flipped one, graded once."""
    exercise = exercises.load("helpers")
    return {path: grading.grade(exercise, path, sandbox, exercise.limits)
            for path in (FULL_MARKS, FLIPPED)}


class Site:
    """A service with its app and a client; ``login`` opens the instructor's pages."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock
        self.client = TestClient(app.build(service), base_url="http://testserver",
                                 follow_redirects=False)
        self.secret = service.access.first_instructor_secret()
        open_all(service)

    def login(self) -> TestClient:
        assert self.client.get(f"/i/{self.secret}").status_code == 303
        return self.client

    def enrol(self, *people: tuple[str, str]) -> list[str]:
        """Add students; their tokens."""
        return [token for _, token in self.service.students.import_roster(1, people) if token]

    def csrf(self, path: str) -> str:
        match = re.search(r'name="csrf" value="([^"]+)"', self.client.get(path).text)
        assert match, path
        return match.group(1)

    def hand_in(self, token: str, *files: tuple[str, bytes], exercise: str = "helpers",
                csrf: str | None = None) -> "object":
        data = {"csrf": csrf if csrf is not None else self.csrf(f"/s/{token}")}
        return self.client.post(f"/s/{token}/submit/{exercise}", data=data,
                                files=[("files", (name, body, "application/octet-stream"))
                                       for name, body in files])

    def count(self, table: str) -> int:
        from sqlalchemy import text

        with self.service.engine.connect() as connection:
            return connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()


@pytest.fixture
def make(tmp_path: Path, sandbox: grading.Sandbox) -> Callable[..., Site]:
    """``make(grade=None, **options)``: a Site on this test's data folder (the same
    folder each call, as a restarted service finds it)."""

    def site(grade: Callable | None = None, clock: Clock | None = None, **options) -> Site:
        clock = clock or Clock()
        service = Service(Options(data=tmp_path / "data", **options), now=clock, grade=grade,
                          sandbox=sandbox)
        return Site(service, clock)

    return site


def open_all(service: Service, course_id: int = 1) -> None:
    """Open the course's exercises to its students, as its instructor would first (a
    new exercise is hidden): the tests of what students do start there."""
    with service.sessions.begin() as session:
        for exercise_id in service.exercises:
            if session.get(ExerciseSetting, (course_id, exercise_id)) is None:
                session.add(ExerciseSetting(course_id=course_id, exercise_id=exercise_id,
                                            visible=True, late_penalty=0.0, min_minutes=0.0,
                                            score_rule="best"))


class _Kept(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the redirect is raised as an HTTPError, to be read


NOT_FOLLOWED = urllib.request.build_opener(_Kept)


def open_served(base: str, secret: str, course_id: int = 1) -> None:
    """Open a served course's exercises through its pages, as its instructor would."""
    headers = {"x-instructor-secret": secret}
    ids = [exercise.id for exercise in exercises.load_all()]
    with urllib.request.urlopen(urllib.request.Request(
            f"{base}/i/c/{course_id}/exercises/{ids[0]}", headers=headers)) as page:
        found = re.search(r'name="csrf" value="([^"]+)"', page.read().decode())
    assert found, "no form on the exercise's page"
    for exercise_id in ids:
        form = urlencode({"csrf": found[1], "visible": "1", "late_penalty": "0"}).encode()
        try:  # not led on to the exercise's page: its 303 says it was saved
            NOT_FOLLOWED.open(urllib.request.Request(
                f"{base}/i/c/{course_id}/settings/{exercise_id}", data=form, headers=headers))
        except urllib.error.HTTPError as answer:
            assert answer.code == 303, (exercise_id, answer.code)


def replaying(graded: dict, path: Path) -> Callable:
    """A grade function that gives the real report of ``path`` (no sandbox run)."""
    return lambda exercise, files: copy.deepcopy(graded[path])


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()
