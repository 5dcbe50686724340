"""The instructor's side: the secret, the roster, settings, the gradebook and its
CSV files, regrading and the queue."""

import csv
import io
import re

from grader.service.models import ExerciseSetting
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, replaying

ROSTER = "name,email\nAda Lovelace,ada@example.edu\n=cmd(),eve@example.edu\n"


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


def test_the_staff_pages_need_a_staff_members_link(make):
    site = make()
    for path in ("/i", "/i/c/1", "/i/c/1/grades.csv", "/i/c/1/canvas.csv", "/i/c/1/students/1"):
        assert site.client.get(path).status_code == 403
    assert site.client.get("/i/c/1", headers={"x-instructor-secret": "guess"}).status_code == 403
    assert site.client.get("/i/not-the-secret").status_code == 404
    assert site.client.post("/i/c/1/roster",
                            files={"roster": ("r.csv", ROSTER)}).status_code == 403
    # The first start's link is the first instructor's: it sets a cookie and leaves the
    # address bar for their courses; a header does as well.
    login = site.client.get(f"/i/{site.secret}")
    assert login.status_code == 303 and login.headers["location"] == "/i"
    assert "httponly" in login.headers["set-cookie"].lower()
    courses = site.client.get("/i").text
    assert "Signed in as Instructor." in courses and '<a href="/i/c/1">Course</a>' in courses
    assert site.client.get("/i/c/1").status_code == 200
    assert site.service.access.first_instructor_secret() is None  # made once, at the first start
    newer = site.service.access.new_instructor_secret()  # --new-instructor-link: the old one ends
    assert site.client.get("/i/c/1").status_code == 403
    assert site.client.get(f"/i/{newer}").status_code == 303
    assert site.client.get("/i/c/2").status_code == 403  # no such course, and none of theirs


def test_a_header_opens_the_pages_for_scripts(make):
    site = make()
    response = site.client.get("/i/c/1/grades.csv", headers={"x-instructor-secret": site.secret})
    assert response.status_code == 200 and response.text.startswith("name,email,")


def test_a_roster_import_shows_each_new_link_once(make):
    site = make()
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    forged = client.post("/i/c/1/roster", data={"csrf": "no"}, files={"roster": ("r.csv", ROSTER)})
    assert forged.status_code == 403 and site.count("students") == 0
    page = client.post("/i/c/1/roster", data={"csrf": csrf},
                       files={"roster": ("r.csv", ROSTER)}).text
    links = re.findall(r"http://testserver/s/([\w-]+)", page)
    assert len(links) == 2
    assert "Ada Lovelace" in site.client.get(f"/s/{links[0]}").text
    again = client.post("/i/c/1/roster", data={"csrf": csrf}, files={"roster": ("r.csv", ROSTER)})
    assert re.findall(r"/s/([\w-]+)", again.text) == [] and "link unchanged" in again.text
    bad = client.post("/i/c/1/roster", data={"csrf": csrf},
                      files={"roster": ("r.csv", "who,where\nA,B\n")})
    assert bad.status_code == 400 and "name and email" in bad.text


def test_the_gradebook_and_its_csv_files(make, graded):
    reports = {FULL_MARKS.read_bytes(): graded[FULL_MARKS], FLIPPED.read_bytes(): graded[FLIPPED]}
    site = make(grade=lambda exercise, files: reports[files[NAME]])
    ada, eve = site.enrol(("Ada Lovelace", "ada@example.edu"), ("=cmd()", "eve@example.edu"))
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", deadline=site.clock.now, late_penalty=0.5,
        min_minutes=0.0,
        score_rule="best"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.clock.advance(minutes=5)
    site.hand_in(eve, (NAME, FULL_MARKS.read_bytes()))  # late: half
    site.service.jobs.drain()
    client = site.login()

    page = client.get("/i/c/1").text
    assert "Queue: 0 waiting, 0 running,\n2 done, 0 errors, 0 replaced by a later hand-in (all " \
           "courses)." in page
    assert "<td>10</td>" in page and '<td>5 <span class="late">late</span></td>' in page

    grades = list(csv.reader(io.StringIO(client.get("/i/c/1/grades.csv").text)))
    helpers = grades[0].index("helpers")
    assert grades[0][:2] == ["name", "email"]
    assert [(row[0], row[1], row[helpers]) for row in grades[1:]] == [
        ("'=cmd()", "eve@example.edu", "5"), ("Ada Lovelace", "ada@example.edu", "10")]
    assert grades[1][grades[0].index("gamestate")] == ""

    canvas = client.get("/i/c/1/canvas.csv")
    assert "canvas-gradebook.csv" in canvas.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(canvas.text)))
    assert rows[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    column = rows[0].index("The minimax helpers")
    assert rows[1][0] == "Points Possible" and rows[1][column] == "10"
    assert rows[3][:5] == ["Ada Lovelace", "", "", "", ""]  # no Canvas ids on this roster
    assert rows[3][column] == "10" and rows[2][column] == "5"
    assert len(rows[0]) == 5 + len(site.service.exercises)

    student = client.get("/i/c/1/students/1").text
    assert "Ada Lovelace" in student and 'href="/i/c/1/attempts/1">#1</a>' in student
    attempt = client.get("/i/c/1/attempts/1").text
    assert "<h2 id=\"report-title\">Report</h2>" in attempt and "10/10 points" in attempt


def test_settings_and_regrade_from_the_page(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [token] = site.enrol(("Ada", "ada@example.edu"))
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    saved = client.post("/i/c/1/settings/helpers", data={
        "csrf": csrf, "deadline_date": "2026-03-01", "deadline_time": "09:00",
        "hard_deadline": "2026-03-09T09:00",  # as a datetime-local input (or a script) sends it
        "late_penalty": "20", "min_minutes": "15", "score_rule": "last", "visible": "1"})
    assert saved.status_code == 303
    assert saved.headers["location"].startswith("/i/c/1/exercises/helpers?saved=")
    assert ("Saved: open to students; deadline 2026-03-01 09:00 UTC (hard: 2026-03-09 "
            "09:00 UTC); late penalty 20%") in client.get(saved.headers["location"]).text
    setting = site.service.term.setting(1, "helpers")
    assert (setting.late_penalty, setting.min_minutes, setting.score_rule) == (0.2, 15, "last")
    page = site.client.get(f"/s/{token}").text
    assert "Deadline: 2026-03-01 09:00 UTC" in page and "20% penalty" in page
    for wrong in ({"deadline": "soon"}, {"deadline_date": "2026-02-30"},
                  {"deadline_date": "2026-03-01", "deadline_time": "25:00"},
                  {"deadline_time": "09:00"}):
        bad = client.post("/i/c/1/settings/helpers", data={"csrf": csrf, **wrong})
        assert bad.status_code == 400 and ("is not a date and time" in bad.text
                                           or "without its date" in bad.text), wrong

    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    assert client.post("/i/c/1/regrade/helpers", data={}).status_code == 403
    regrade = client.post("/i/c/1/regrade/helpers", data={"csrf": csrf})
    assert regrade.status_code == 200 and "0 submission(s)" in regrade.text
    assert "1 not queued: graded already by this grader version" in regrade.text
