"""Closed until opened: a fresh install's first course, as every new course, shows its
students nothing until staff open an exercise; a term upgraded from before keeps
the exercises it had open."""

import re

from sqlalchemy import text
from starlette.testclient import TestClient

from grader.service import app, db
from grader.service.core import Service
from grader.service.options import Options
from tests.service.test_service_migration import old_term


def shown(client: TestClient, token: str) -> list[str]:
    """The exercises a student's page shows, by their sections' ids."""
    return re.findall(r'<section id="([\w-]+)">', client.get(f"/s/{token}").text)


def test_a_fresh_installs_first_course_is_closed_until_staff_open_an_exercise(
        tmp_path, sandbox):
    service = Service(Options(data=tmp_path / "data"), sandbox=sandbox)
    with service.engine.connect() as connection:
        assert connection.execute(text(
            "SELECT count(*) FROM exercise_settings WHERE visible")).scalar_one() == 0
    # The pages as they are, nothing opened for the test (as conftest's Site does).
    client = TestClient(app.build(service), base_url="http://testserver",
                        follow_redirects=False)
    [token] = [token for _, token in service.students.import_roster(
        1, [("Ada", "ada@example.edu")]) if token]
    page = client.get(f"/s/{token}")
    assert page.status_code == 200 and shown(client, token) == []
    assert client.get(f"/s/{token}/exercises/helpers").status_code == 404

    secret = service.access.first_instructor_secret()
    assert client.get(f"/i/{secret}").status_code == 303
    form = client.get("/i/c/1/exercises/helpers").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form)
    assert csrf, form
    saved = client.post("/i/c/1/settings/helpers",
                             data={"csrf": csrf[1], "visible": "1", "late_penalty": "0"})
    assert saved.status_code == 303
    assert shown(client, token) == ["helpers"]  # what staff opened, and only that
    service.close()


def test_a_term_that_had_started_keeps_its_exercises_open_on_upgrade(tmp_path):
    # A service that had started (its instructor's link made) and nothing else.
    engine = db.connect(db.sqlite_url(tmp_path))
    db.migrate(engine, "0005")
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO service_settings (key, value) "
                                "VALUES ('instructor_hash', 'h')"))
    db.migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text(
            "SELECT count(*) FROM exercise_settings WHERE visible AND deadline IS NULL "
            "AND course_id = 1")).scalar_one() == 15


def test_a_term_with_students_keeps_its_exercises_open_on_upgrade(tmp_path):
    engine = old_term(db.sqlite_url(tmp_path))
    db.migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text(
            "SELECT count(*) FROM exercise_settings WHERE visible")).scalar_one() == 15
