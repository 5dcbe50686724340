"""The gradebook a TA works in, and deadlines as the instructor means them:
extensions (one student's, a section's, the class's) that judge again the
attempts made already, the course's time zone, exercises hidden until opened,
canvas.csv of the chosen exercises, overrides that stand, sorting, filtering,
statistics, the missing and late work, the live queue, and links in bulk."""

import csv
import io
import re
from datetime import timedelta

from sqlalchemy import select

from grader.service.models import AuditEntry, ExerciseSetting
from grader.service.roster import Person
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, replaying

LATE = dict(late_penalty=0.5, min_minutes=0.0, score_rule="best", visible=True)


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


def grades(client) -> dict[str, dict[str, str]]:
    """grades.csv as each student's scores, by their name."""
    rows = list(csv.DictReader(io.StringIO(client.get("/i/c/1/grades.csv").text)))
    return {row["name"]: row for row in rows}


def late_class(make, graded, *people: Person):
    """A class of ``people`` whose helpers were due at noon (a 50% late penalty, no
    hand-in after two days), each of whom handed in full marks an hour late."""
    site = make(grade=replaying(graded, FULL_MARKS))
    tokens = [token for _, token in site.service.students.import_roster(1, people) if token]
    due = site.clock.now
    site.service.term.save_setting(ExerciseSetting(course_id=1, exercise_id="helpers", deadline=due,
                                                   hard_deadline=due + timedelta(days=2), **LATE))
    site.clock.advance(hours=1)
    for token in tokens:
        assert site.hand_in(token, (NAME, FULL_MARKS.read_bytes())).status_code == 303
    site.service.jobs.drain()
    return site, tokens


def test_an_extension_turns_a_late_attempt_on_time_and_the_score_follows(make, graded):
    site, (ada, _) = late_class(make, graded, Person("Ada", "ada@example.edu"),
                                Person("Bob", "bob@example.edu"))
    rescored: list[str] = []
    site.service.rescored.listen(lambda course, exercise: rescored.append(exercise))
    client = site.login()
    assert {name: row["helpers"] for name, row in grades(client).items()} == \
        {"Ada": "5", "Bob": "5"}
    assert "(late)" in site.client.get(f"/s/{ada}").text

    csrf = csrf_of(client.get("/i/c/1/students/1").text)
    saved = client.post("/i/c/1/students/1/extension/helpers", data={
        "csrf": csrf, "deadline_date": "2026-03-03", "deadline_time": "12:00"})
    assert saved.status_code == 303
    assert rescored == ["helpers"]  # the LMS is sent the score that counts now
    assert {name: row["helpers"] for name, row in grades(client).items()} == \
        {"Ada": "10", "Bob": "5"}
    mine = site.client.get(f"/s/{ada}").text
    assert "(late)" not in mine and '<strong class="counted">10/10</strong>' in mine
    assert "Deadline: 2026-03-03 12:00 UTC" in mine
    attempt = site.client.get(f"/s/{ada}/attempts/1").text
    assert "late:" not in attempt

    # Removed, the deadline in force is the class's again: late again.
    client.post("/i/c/1/students/1/extension/helpers", data={"csrf": csrf})
    assert grades(client)["Ada"]["helpers"] == "5"
    # A changed deadline judges every attempt again too.
    setting = site.service.term.setting(1, "helpers")
    setting.deadline = site.clock.now
    site.service.term.save_setting(setting)
    assert {name: row["helpers"] for name, row in grades(client).items()} == \
        {"Ada": "10", "Bob": "10"}


def test_an_extension_for_a_section_and_for_the_class(make, graded):
    site, _ = late_class(make, graded, Person("Ada", "ada@example.edu", section="Mon"),
                         Person("Bob", "bob@example.edu", section="Tue"),
                         Person("Cy", "cy@example.edu", section="Mon"))
    client = site.login()
    page = client.get("/i/c/1/exercises/helpers").text
    assert '<option value="Mon">section Mon</option>' in page
    csrf = csrf_of(page)
    saved = client.post("/i/c/1/exercises/helpers/extension", data={
        "csrf": csrf, "section": "Mon", "deadline_date": "2026-03-04"})
    assert saved.status_code == 303
    assert "saved for section Mon: 2 student(s)" in client.get(saved.headers["location"]).text
    assert {name: row["helpers"] for name, row in grades(client).items()} == \
        {"Ada": "10", "Bob": "5", "Cy": "10"}
    assert site.service.term.own_setting(1, 1, "helpers").deadline.isoformat() == \
        "2026-03-04T23:59:00"  # a date alone: the end of that day

    client.post("/i/c/1/exercises/helpers/extension", data={
        "csrf": csrf, "deadline_date": "2026-03-05", "deadline_time": "08:00"})
    assert {row["helpers"] for row in grades(client).values()} == {"10"}
    page = client.get("/i/c/1/exercises/helpers").text
    assert page.count("2026-03-05 08:00 UTC") == 3  # each student's, listed
    with site.service.sessions() as session:
        said = [(entry.action, entry.target) for entry in session.scalars(
            select(AuditEntry).where(AuditEntry.action == "extension set"))]
    assert said == [("extension set", "section Mon, helpers"),
                    ("extension set", "the class, helpers")]

    wrong = client.post("/i/c/1/exercises/helpers/extension", data={
        "csrf": csrf, "deadline_date": "5 March"})
    assert wrong.status_code == 400 and "is not a date and time" in wrong.text


def test_the_course_time_zone_shows_and_takes_dates_and_a_bad_one_is_refused(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    for wrong in ("Mars/Olympus_Mons", "../../etc/passwd", ""):
        refused = client.post("/i/c/1/time-zone", data={"csrf": csrf, "time_zone": wrong})
        assert refused.status_code == 400 and "is not a time zone name" in refused.text
    assert site.service.access.zone(1).key == "UTC"
    assert client.post("/i/c/1/time-zone", data={
        "csrf": csrf, "time_zone": "America/New_York"}).status_code == 303
    # 09:00 in New York in March (EDT from the 8th) is 13:00 UTC, stored so.
    client.post("/i/c/1/settings/helpers", data={
        "csrf": csrf, "visible": "1", "deadline_date": "2026-03-10", "deadline_time": "09:00",
        "late_penalty": "0"})
    assert site.service.term.setting(1, "helpers").deadline.isoformat() == "2026-03-10T13:00:00"
    assert "Deadline: 2026-03-10 09:00 EDT" in site.client.get(f"/s/{ada}").text
    page = client.get("/i/c/1/exercises/helpers").text
    assert 'name="deadline_date" value="2026-03-10"' in page
    assert 'name="deadline_time" value="09:00"' in page
    assert "Times are shown in America/New_York" in client.get("/i/c/1").text
    # The audit log says when in the course's zone too (a New York time now is EST or EDT).
    assert re.search(r"<td>\d{4}-\d\d-\d\d \d\d:\d\d E[SD]T</td>",
                     client.get("/i/c/1/audit").text)


def test_a_new_exercise_is_hidden_until_opened(make):
    site = make()
    access = site.service.access
    course = access.new_course("Second term", access.signed_in(site.secret))
    [(_, token)] = site.service.students.import_roster(course.id, [("Ada", "ada@example.edu")])
    assert not site.service.term.setting(course.id, "helpers").visible
    assert site.service.term.open_exercises(course.id) == set()
    assert "No exercise is open yet." in site.client.get(f"/s/{token}").text
    assert site.service.term.open_exercises(1) == set(site.service.exercises)  # opened by the test


def test_canvas_csv_holds_the_chosen_exercises_only(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    site.service.students.import_roster(1, [Person("Lovelace, Ada", "ada@example.edu", "4711",
                                                   "A-1", "ada", "Mon")])
    for exercise_id in site.service.exercises:  # all hidden but helpers and decision
        setting = site.service.term.setting(1, exercise_id)
        setting.visible = exercise_id in ("helpers", "decision")
        site.service.term.save_setting(setting)
    client = site.login()
    [token] = [t for _, t in site.service.students.import_roster(1, [("Bob", "bob@example.edu")])
               if t]
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()

    def canvas() -> list[list[str]]:
        return list(csv.reader(io.StringIO(client.get("/i/c/1/canvas.csv").text)))

    rows = canvas()
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "The minimax decision", "The minimax helpers"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10", "10"]
    assert rows[2] == ["Bob", "", "", "", "", "", "10"]
    assert rows[3] == ["Lovelace, Ada", "4711", "A-1", "ada", "Mon", "", ""]

    # Chosen by hand: a hidden one in, an open one out.
    csrf = csrf_of(client.get("/i/c/1/exercises/gamestate").text)
    client.post("/i/c/1/settings/gamestate", data={"csrf": csrf, "in_canvas": "yes",
                                                   "late_penalty": "0"})
    client.post("/i/c/1/settings/decision", data={"csrf": csrf, "in_canvas": "no",
                                                  "visible": "1", "late_penalty": "0"})
    assert canvas()[0][5:] == ["The mini-isolation GameState", "The minimax helpers"]


def test_an_override_stands_over_a_later_better_attempt_until_removed(make, graded):
    reports = {"report": FLIPPED}
    site = make(grade=lambda exercise, files: replaying(graded, reports["report"])(exercise,
                                                                                    files))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FLIPPED.read_bytes()))
    site.service.jobs.drain()
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1/attempts/1").text)
    client.post("/i/c/1/attempts/1/notes", data={"csrf": csrf, "kind": "score", "score": "6",
                                                 "text": "Half of it, by hand."})
    reports["report"] = FULL_MARKS
    site.clock.advance(minutes=5)
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    assert grades(client)["Ada"]["helpers"] == "6"  # the override stands
    assert '<span class="manual">manual, by Instructor</span>' in client.get("/i/c/1").text
    page = client.get("/i/c/1/students/1").text
    assert "Manual score in force:</strong> 6/10, set by Instructor" in page
    assert "Attempts of Ada at helpers" in page and "Your attempts" not in page
    assert '<strong class="counted">6/10</strong>' in site.client.get(f"/s/{ada}").text

    rescored: list[str] = []
    site.service.rescored.listen(lambda course, exercise: rescored.append(exercise))
    removed = client.post("/i/c/1/attempts/1/unscore", data={"csrf": csrf})
    assert removed.status_code == 303 and rescored == ["helpers"]
    assert grades(client)["Ada"]["helpers"] == "10"
    assert "Manual score in force" not in client.get("/i/c/1/students/1").text
    again = client.post("/i/c/1/attempts/1/unscore", data={"csrf": csrf})
    assert again.status_code == 409


def test_links_are_issued_again_in_bulk_as_a_csv(make):
    site = make()
    site.service.students.import_roster(1, [Person("Ada", "ada@example.edu", section="Mon"),
                                            Person("Bob", "bob@example.edu", section="Tue")])
    old = {s.name: s.token_hash for s in site.service.students.of_course(1)}
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    assert client.post("/i/c/1/links.csv", data={}).status_code == 403  # no CSRF token
    mon = client.post("/i/c/1/links.csv", data={"csrf": csrf, "section": "Mon"})
    assert mon.status_code == 200 and mon.headers["content-type"].startswith("text/csv")
    assert 'filename="links.csv"' in mon.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(mon.text)))
    assert [(row["name"], row["section"]) for row in rows] == [("Ada", "Mon")]
    assert site.client.get(rows[0]["link"].removeprefix("http://testserver")).status_code == 200
    now = {s.name: s.token_hash for s in site.service.students.of_course(1)}
    assert now["Ada"] != old["Ada"] and now["Bob"] == old["Bob"]  # Ada's old link is dead

    every = list(csv.DictReader(io.StringIO(client.post(
        "/i/c/1/links.csv", data={"csrf": csrf}).text)))
    assert [row["name"] for row in every] == ["Ada", "Bob"]
    assert site.client.get(rows[0]["link"].removeprefix("http://testserver")).status_code == 404
    with site.service.sessions() as session:
        said = [(entry.action, entry.target) for entry in session.scalars(
            select(AuditEntry).where(AuditEntry.action == "new links"))]
    assert said == [("new links", "1 student(s)"), ("new links", "2 student(s)")]


def test_the_gradebook_sorts_filters_counts_and_lists_missing_and_late_work(make, graded):
    site, _ = late_class(make, graded, Person("Ada", "ada@example.edu", section="Mon"),
                         Person("Bob", "bob@example.edu", section="Tue"))
    [cy] = [t for _, t in site.service.students.import_roster(1, [Person("Cy", "cy@example.edu",
                                                                         section="Tue")]) if t]
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1").text)
    client.post("/i/c/1/students/1/extension/helpers", data={
        "csrf": csrf, "deadline_date": "2026-03-03"})
    page = client.get("/i/c/1?exercise=helpers&sort=helpers&order=desc").text
    assert '<th scope="col" aria-sort="descending"><a href="/i/c/1?' in page
    assert page.index(">Ada</a>") < page.index(">Bob</a>") < page.index(">Cy</a>")
    assert ">The minimax helpers</a></th>" in page and ">The minimax decision</a>" not in \
        page.split("<tbody>")[1].split("</table>")[0]  # one exercise's column only
    assert "<td>2</td><td>7.5</td><td>7.5</td><td>10</td>" in page  # count, mean, median
    assert '<svg role="img" aria-labelledby="hist-helpers-title hist-helpers-desc"' in page
    assert "5 to 6: 1. " in page and "<td>9 to 10</td><td>1</td>" in page
    tue = client.get("/i/c/1?section=Tue&sort=name").text
    assert ">Ada</a>" not in tue and ">Bob</a>" in tue and ">Cy</a>" in tue
    # What it can't mean is left at the default.
    assert client.get("/i/c/1?sort=nothing&exercise=none&order=up").status_code == 200

    work = client.get("/i/c/1/work").text
    missing = work.split('id="missing"')[1].split('id="late"')[0]
    cy_helpers = ('<td><a href="/i/c/1/students/3#title-helpers">Cy</a></td><td>Tue</td>\n'
                  '<td>2026-03-02 12:00 UTC <span class="late">(passed)</span></td>\n'
                  '<td>nothing handed in</td>')
    assert cy_helpers in missing and "/students/1#title-helpers" not in missing
    late = work.split('id="late"')[1]
    assert ">Bob</a>" in late and ">Ada</a>" not in late  # on time by her extension

    site.hand_in(cy, (NAME, FULL_MARKS.read_bytes()))
    page = client.get("/i/c/1").text
    assert 'data-watch="yes"' in page and 'data-pending="yes"' in page
    assert "<td>Cy</td>" in page.split('id="queue"')[1]  # the live queue
    status = client.get("/i/c/1/status.json").json()
    assert status["pending"] and list(status["attempts"].values()) == ["waiting"]
    site.service.jobs.drain()
    done = client.get(f"/i/c/1/status.json?since={status['seen']}").json()
    assert done == {"pending": False, "attempts": {}, "seen": done["seen"]}
