"""A student's side: links, hand-ins, reports, scores, the rules and the guards."""

import copy
import json

from markupsafe import escape
from sqlalchemy import update

from grader.layouts import LAYOUTS
from grader.service.models import ExerciseSetting, Report
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, replaying, zipped

ADA = ("Ada Lovelace", "ada@example.edu")
BOB = ("Bob <b>", "bob@example.edu")


def test_a_roster_gives_each_student_a_link_of_their_own(make):
    site = make()
    ada, bob = site.enrol(ADA, BOB)
    assert ada != bob and len(ada) >= 40
    page = site.client.get(f"/s/{ada}")
    assert page.status_code == 200 and "Ada Lovelace" in page.text and "Bob" not in page.text
    assert "Bob &lt;b&gt;" in site.client.get(f"/s/{bob}").text  # escaped
    # Only the hash is kept; a second import keeps the link.
    assert site.count("students") == 2
    again = site.service.students.import_roster(1, [ADA])
    assert again[0][1] is None and site.client.get(f"/s/{ada}").status_code == 200


def test_a_hand_in_is_stored_graded_and_shown_with_its_report(make):
    site = make()
    [token] = site.enrol(ADA)
    response = site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert response.status_code == 303
    assert site.service.store.count() == 1 and site.count("jobs") == 1
    page = site.client.get(f"/s/{token}").text
    assert "waiting to be graded" in page

    assert site.service.jobs.drain() == 1
    page = site.client.get(f"/s/{token}").text
    assert '<strong class="counted">10/10</strong>' in page
    [attempt_id] = [s.id for s in site.service.students.attempts(1)]
    report = site.client.get(f"/s/{token}/attempts/{attempt_id}").text
    assert "<pre>" in report and "10/10 points" in report

    # A mistake: fewer points, the feedback in the report, the best attempt still counts.
    site.hand_in(token, (NAME, FLIPPED.read_bytes()))
    assert site.service.jobs.drain() == 1
    second = max(s.id for s in site.service.students.attempts(1))
    report = site.client.get(f"/s/{token}/attempts/{second}").text
    assert "FAILED" in report and "10/10" not in report
    assert '<strong class="counted">10/10</strong>' in site.client.get(f"/s/{token}").text


def test_a_zip_of_the_files_is_taken(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    body = zipped({f"ada/{NAME}": FULL_MARKS.read_bytes()})
    assert site.hand_in(token, ("ada.zip", body)).status_code == 303
    site.service.jobs.drain()
    assert '<strong class="counted">10/10</strong>' in site.client.get(f"/s/{token}").text


def test_the_last_rule_counts_the_last_graded_attempt(make, graded):
    reports = iter([graded[FULL_MARKS], graded[FLIPPED]])
    site = make(grade=lambda exercise, files: next(reports))
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", late_penalty=0.0, min_minutes=0.0,
        score_rule="last"))
    [token] = site.enrol(ADA)
    for path in (FULL_MARKS, FLIPPED):
        site.hand_in(token, (NAME, path.read_bytes()))
        site.service.jobs.drain()
    flipped = graded[FLIPPED]["score"]
    assert f'class="counted">{flipped:g}/10<' in site.client.get(f"/s/{token}").text


def test_the_rate_limit_says_when_and_refuses_before(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", late_penalty=0.0, min_minutes=30,
        score_rule="best"))
    [token] = site.enrol(ADA)
    csrf = site.csrf(f"/s/{token}")
    assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes()), csrf=csrf).status_code == 303
    assert "next attempt is allowed from 2026-03-02 12:30 UTC" in site.client.get(
        f"/s/{token}").text
    site.clock.advance(minutes=29)
    refused = site.hand_in(token, (NAME, FULL_MARKS.read_bytes()), csrf=csrf)
    assert refused.status_code == 429
    assert "too soon" in refused.text and "12:30 UTC" in refused.text
    assert site.count("submissions") == 1
    site.clock.advance(minutes=1)
    assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
    # Another exercise has its own limit.
    assert site.hand_in(token, ("gamestate.py", b"x = 1\n"), exercise="gamestate",
                        csrf=csrf).status_code == 303


def test_late_work_loses_the_penalty_and_the_hard_deadline_closes(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    clock = site.clock
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", deadline=clock.now,
        hard_deadline=clock.now.replace(hour=14),
        late_penalty=0.25, min_minutes=0.0, score_rule="best"))
    [token] = site.enrol(ADA)
    clock.advance(minutes=1)
    assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
    site.service.jobs.drain()
    page = site.client.get(f"/s/{token}").text
    assert "(late)" in page and "10/10, late: counts 7.5 after the 25% penalty" in page
    assert '<strong class="counted">7.5/10</strong>' in page
    clock.advance(hours=2)
    assert "The hard deadline has passed" in site.client.get(f"/s/{token}").text
    closed = site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    assert closed.status_code == 403 and "hard deadline" in closed.text
    assert site.count("submissions") == 1


def test_another_students_attempt_is_not_found(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    ada, bob = site.enrol(ADA, BOB)
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    assert site.client.get(f"/s/{ada}/attempts/1").status_code == 200
    theirs = site.client.get(f"/s/{bob}/attempts/1")
    assert theirs.status_code == 404 and "10/10" not in theirs.text
    assert site.client.get(f"/s/{bob}/attempts/99").status_code == 404


def test_a_wrong_token_finds_nothing_and_says_nothing(make):
    site = make()
    site.enrol(ADA)
    for path in ("/s/not-a-token", "/s/not-a-token/attempts/1"):
        response = site.client.get(path)
        assert response.status_code == 404
        assert "Ada" not in response.text and "not-a-token" not in response.text
    posted = site.client.post("/s/not-a-token/submit/helpers", data={"csrf": "x"},
                              files=[("files", (NAME, FULL_MARKS.read_bytes()))])
    assert posted.status_code == 404 and site.count("submissions") == 0


def test_a_post_without_the_csrf_token_stores_nothing(make):
    site = make()
    ada, bob = site.enrol(ADA, BOB)
    for csrf in ("", "0" * 64, site.csrf(f"/s/{bob}"), "é"):
        response = site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()), csrf=csrf)
        assert response.status_code == 403
    assert site.count("submissions") == 0 and site.service.store.count() == 0


def test_an_oversized_upload_is_refused_while_read(make):
    site = make(max_upload=64 * 1024)
    [token] = site.enrol(ADA)
    big = b"# padding\n" * 10_000
    response = site.hand_in(token, (NAME, big))
    assert response.status_code == 413 and "too large" in response.text
    # Without a length given up front, the cap holds as the body streams in.
    chunks = iter([b"x" * 40_000, b"y" * 40_000])
    streamed = site.client.post(f"/s/{token}/submit/helpers", content=chunks,
                                headers={"content-type": "multipart/form-data; boundary=b"})
    assert streamed.status_code == 413
    assert site.count("submissions") == 0 and site.service.store.count() == 0


def test_a_zip_that_leaves_its_folder_is_refused(make):
    site = make()
    [token] = site.enrol(ADA)
    body = zipped({f"../{NAME}": FULL_MARKS.read_bytes()})
    response = site.hand_in(token, ("evil.zip", body))
    assert response.status_code == 400 and "points outside the folder" in response.text
    bad_names = site.hand_in(token, ("notes.txt", b"hello"))
    assert bad_names.status_code == 400
    assert site.count("submissions") == 0 and site.service.store.count() == 0


def test_a_report_page_says_how_it_was_graded_and_an_older_report_says_nothing(make, graded):
    made = graded[FULL_MARKS]
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    [attempt_id] = [s.id for s in site.service.students.attempts(1)]
    said = str(escape(LAYOUTS[made["sandbox"]["layout"]].said))
    page = site.client.get(f"/s/{token}/attempts/{attempt_id}").text
    assert f'<p class="layout">{said}</p>' in page
    older = copy.deepcopy(made)  # written before reports said their layout
    del older["sandbox"]["layout"], older["sandbox"]["isolated"]
    with site.service.sessions.begin() as session:
        session.execute(update(Report).values(body=json.dumps(older)))
    page = site.client.get(f"/s/{token}/attempts/{attempt_id}").text
    assert "10/10 points" in page and 'class="layout"' not in page


def test_a_grader_error_is_shown_as_not_counting(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    with site.service.sessions.begin() as session:  # as if the grader had failed
        session.execute(update(Report).values(status="error", score=None))
    page = site.client.get(f"/s/{token}").text
    assert "we could not grade this, it does not count" in page
    assert '<strong class="counted">-/10</strong>' in page and "0/10" not in page


def test_pages_carry_the_security_headers(make):
    site = make()
    [token] = site.enrol(ADA)
    for path in ("/", f"/s/{token}", "/s/nobody"):
        headers = site.client.get(path).headers
        assert headers["content-security-policy"] == "default-src 'self'"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_what_the_code_printed_is_shown_escaped(make, graded):
    printed = copy.deepcopy(graded[FULL_MARKS])
    printed["output"] = {"text": "<script>alert(1)</script>", "bytes": 25, "truncated": False}
    site = make(grade=lambda exercise, files: printed)
    [token] = site.enrol(ADA)
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    page = site.client.get(f"/s/{token}/attempts/1").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>" not in page
