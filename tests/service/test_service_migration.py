"""A term's database made by the release before courses (schema 0005) opens in this
one with every row kept: its data becomes the first course, its instructor secret
the first instructor's login link, its LTI ties kept. On SQLite and PostgreSQL."""

from datetime import datetime

from sqlalchemy import text

from grader.service import db, tokens
from tests.service.postgres_server import database, postgres  # noqa: F401

OLD_SECRET = "the-instructor-secret-of-last-term"
THEN = datetime(2026, 3, 1, 9, 0)
LATER = datetime(2099, 1, 1)
# Every table of schema 0005, a row or two each, as the release before wrote them.
ROWS = {
    "service_settings": [{"key": "instructor_hash", "value": tokens.hashed(OLD_SECRET)},
                         {"key": "csrf_key", "value": "k"}],
    "students": [
        {"id": 1, "name": "Ada", "email": "ada@example.edu", "token_hash": "a" * 64,
         "created_at": THEN, "served": 3, "active": True, "canvas_id": "4711"},
        {"id": 2, "name": "Bob", "email": "bob@example.edu", "token_hash": "b" * 64,
         "created_at": THEN, "served": 0, "active": True, "canvas_id": None}],
    "exercise_settings": [{"exercise_id": "helpers", "deadline": THEN, "late_penalty": 0.5,
                           "min_minutes": 0.0, "score_rule": "best", "visible": True}],
    "extensions": [{"student_id": 1, "exercise_id": "helpers", "deadline": LATER}],
    "submissions": [{"id": 1, "student_id": 1, "exercise_id": "helpers", "received_at": THEN,
                     "late": False, "digest": "d" * 64}],
    "submission_files": [{"submission_id": 1, "name": "minimax_helpers.py",
                          "sha256": "e" * 64, "size": 10}],
    "reports": [{"id": 1, "submission_id": 1, "grader_version": "v", "status": "graded",
                 "score": 4.0, "max_score": 10.0, "body": "{}", "created_at": THEN}],
    "attempt_notes": [{"id": 1, "submission_id": 1, "kind": "score", "score": 7.0,
                       "text": "The idea is right.", "author": "the instructor",
                       "created_at": THEN}],
    "jobs": [{"id": 1, "submission_id": 1, "grader_version": "v", "state": "done",
              "attempts": 1, "created_at": THEN, "updated_at": THEN}],
    "launch_keys": [{"token_hash": tokens.hashed("ada-key"), "student_id": 1,
                     "expires_at": LATER},
                    {"token_hash": tokens.hashed("staff-key"), "student_id": None,
                     "expires_at": LATER}],
    "lti_platforms": [{"id": 1, "issuer": "https://lms.example.edu", "client_id": "c",
                       "deployment_ids": '["d1", "d2"]', "key_set_url": "https://l/k",
                       "auth_login_url": "https://l/a", "auth_token_url": "https://l/t"}],
    "lti_keys": [{"id": 1, "private_pem": "pem", "created_at": THEN}],
    "lti_state": [{"key": "nonce-x", "value": "true", "expires_at": LATER}],
    "lti_contexts": [{"id": 1, "platform_id": 1, "context_id": "course-1", "title": "AI"}],
    "lti_users": [{"id": 1, "platform_id": 1, "sub": "ada-sub", "student_id": 1},
                  {"id": 2, "platform_id": 1, "sub": "staff-sub", "student_id": None}],
    "lti_members": [{"context_id": 1, "user_id": 1}],
    "lti_resources": [{"id": 1, "context_id": 1, "resource_link_id": "link-1",
                       "exercise_id": "helpers", "endpoint": None}],
    "lti_score_posts": [{"id": 1, "resource_id": 1, "student_id": 1, "score_given": 7.0,
                         "score_maximum": 10.0, "state": "sent", "attempts": 1,
                         "created_at": THEN, "next_try_at": THEN, "sent_at": THEN}],
    "leagues": [{"id": 1, "exercise_id": "agent", "settings": "{}", "state": "done",
                 "shown": True, "created_at": THEN}],
    "league_entries": [{"league_id": 1, "student_id": 1, "submission_id": 1, "name": "Ada #1"}],
    "league_games": [{"id": 1, "league_id": 1, "game_id": "g", "first_id": 1, "second_id": 2,
                      "winner": 0, "reason": "won", "body": "{}"}],
}
# What the upgrade moves: the instructor's secret and launch key become credentials.
MOVED = {"service_settings": 1, "launch_keys": 1}
# What it adds: each exercise never saved gets a setting that keeps it open, as it was
# (a new exercise is hidden until opened since 0007).
ADDED = {"exercise_settings": 14}


def old_term(url: str):
    engine = db.connect(url)
    db.migrate(engine, "0005")
    with engine.begin() as connection:
        for table, rows in ROWS.items():
            for row in rows:
                names = ", ".join(row)
                connection.execute(text(f"INSERT INTO {table} ({names}) VALUES "
                                        f"({', '.join(':' + name for name in row)})"), row)
    return engine


def test_a_term_of_the_release_before_opens_with_every_row(tmp_path, database):  # noqa: F811
    engine = old_term(database or db.sqlite_url(tmp_path))
    db.migrate(engine)
    with engine.connect() as connection:
        def rows(query: str) -> list[tuple]:
            return [tuple(row) for row in connection.execute(text(query))]

        for table, written in ROWS.items():
            assert rows(f"SELECT count(*) FROM {table}") == [
                (len(written) - MOVED.get(table, 0) + ADDED.get(table, 0),)], table
        assert rows("SELECT count(*) FROM exercise_settings WHERE visible AND deadline IS NULL "
                    "AND exercise_id != 'helpers'") == [(14,)]
        assert rows("SELECT late_penalty FROM exercise_settings WHERE exercise_id = 'helpers' "
                    "AND deadline IS NOT NULL") == [(0.5,)]  # its own, as it was
        assert rows("SELECT time_zone FROM courses") == [("UTC",)]
        assert rows("SELECT id, title FROM courses") == [(1, "Course")]
        for table in ("students", "exercise_settings", "lti_contexts", "leagues"):
            assert rows(f"SELECT DISTINCT course_id FROM {table}") == [(1,)], table
        # Ada stays tied to her identity; Bob may be tied once, by a launch of the one
        # platform; an identity's deployment is its platform's first.
        assert rows("SELECT id, lti_user_id, match_platform_id FROM students ORDER BY id") \
            == [(1, 1, None), (2, None, 1)]
        assert rows("SELECT id, deployment_id, person_id FROM lti_users ORDER BY id") == [
            (1, "d1", None), (2, "d1", None)]
        assert rows("SELECT deployment_id FROM lti_contexts") == [("d1",)]
        # The secret is the first instructor's link, the launch key theirs for a while.
        assert rows("SELECT id, name FROM people") == [(1, "Instructor")]
        assert rows("SELECT course_id, person_id, role, revoked_at FROM course_staff") == [
            (1, 1, "instructor", None)]
        assert sorted(rows("SELECT token_hash, person_id, kind FROM staff_credentials")) == \
            sorted([(tokens.hashed(OLD_SECRET), 1, "link"), (tokens.hashed("staff-key"), 1,
                                                            "launch")])
        # Each opens the one course (0009): the link every course of its person's.
        assert sorted(rows("SELECT token_hash, course_id FROM staff_credential_courses")) == \
            sorted([(tokens.hashed(OLD_SECRET), 1), (tokens.hashed("staff-key"), 1)])
        assert rows("SELECT score_given, grading_progress FROM lti_score_posts") == [
            (7.0, "FullyGraded")]
        assert rows("SELECT author, person_id FROM attempt_notes") == [("the instructor", None)]
    engine.dispose()


def test_last_terms_secret_signs_in_the_first_instructor(make, tmp_path, database):  # noqa: F811
    (tmp_path / "data").mkdir()
    old_term(database or db.sqlite_url(tmp_path / "data")).dispose()
    site = make(database=database) if database else make()
    assert site.service.access.first_instructor_secret() is None  # they are there already
    staff = site.service.access.signed_in(OLD_SECRET)
    assert staff is not None and (staff.name, staff.roles) == ("Instructor", {1: "instructor"})
    assert site.service.access.signed_in("staff-key").course_id == 1  # their launch, for a while
    client = site.client
    assert client.get(f"/i/{OLD_SECRET}").status_code == 303
    page = client.get("/i/c/1").text
    assert "Ada" in page and "Bob" in page
    assert site.service.students.by_token("ada-key").name == "Ada"  # her launch key still opens
