"""Late days: a course gives each student days to spend across its exercises; a
late hand-in spends whole days, rounded up, while the student has them, and is
then on time; staff set (or refund) the days of one student's exercise; the
gradebook, grades.csv, the student's page and the LMS follow."""

import csv
import io
import re
from datetime import datetime, timedelta

import pytest

from grader.service.latedays import late_by, spend
from grader.service.lti.ags import Poster
from grader.service.models import ExerciseSetting
from tests.service.conftest import FULL_MARKS, NAME, replaying

DEADLINE = datetime(2026, 3, 2, 12, 0)  # the test clock's start


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


@pytest.mark.parametrize("after, days", [
    (timedelta(0), 0), (timedelta(minutes=-5), 0), (timedelta(minutes=1), 1),
    (timedelta(days=1), 1), (timedelta(days=1, seconds=1), 2), (timedelta(hours=50), 3)])
def test_a_late_hand_in_takes_whole_days_rounded_up(after, days) -> None:
    assert late_by(DEADLINE + after, DEADLINE) == days
    assert late_by(DEADLINE + after, None) == 0


def _settings(*ids: str) -> dict[str, ExerciseSetting]:
    return {one: ExerciseSetting(exercise_id=one, deadline=DEADLINE) for one in ids}


def test_days_are_spent_in_the_order_the_hand_ins_came() -> None:
    settings = _settings("a", "b")
    hours = DEADLINE + timedelta(hours=5)
    two_days = DEADLINE + timedelta(hours=30)
    # a spends 1; b needs 2 of the 1 left: it stays late, and spends nothing.
    spent = spend(2, settings, [("b", two_days), ("a", hours)], {})
    assert spent.days == {"a": 1} and spent.left == 1
    # A later hand-in of a, later still, tops a up to 2 while days are left.
    spent = spend(2, settings, [("a", hours), ("a", two_days), ("b", two_days)], {})
    assert spent.days == {"a": 2} and spent.left == 0
    # The staff give a's back (0): b, in the order it came, is covered now.
    spent = spend(2, settings, [("a", hours), ("b", two_days)], {"a": 0})
    assert spent.days == {"b": 2} and spent.set_by_staff == {"a"}
    assert spent.where() == [("a", 0, True), ("b", 2, False)]
    assert not spend(0, settings, [("a", hours)], {})  # no days given: nothing to say


def _late_hand_in(make, graded, allowance: str, late: timedelta):
    """A course giving ``allowance`` days, helpers due now with a 50% penalty; Ada
    hands the full marks in ``late``."""
    site = make(grade=replaying(graded, FULL_MARKS))
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", deadline=site.clock.now, late_penalty=0.5,
        min_minutes=0.0, score_rule="best", visible=True))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    client = site.login()
    rescored: set[str] = set()
    site.service.rescored.listen(lambda course, exercise: rescored.add(exercise))
    csrf = csrf_of(client.get("/i/c/1/late-days").text)
    given = client.post("/i/c/1/late-days", data={"csrf": csrf, "days": allowance})
    assert given.status_code == 303, given.text
    assert rescored == set(site.service.exercises)  # every exercise's scores, to the LMS
    site.clock.advance(seconds=late.total_seconds())
    assert site.hand_in(ada, (NAME, FULL_MARKS.read_bytes())).status_code == 303
    site.service.jobs.drain()
    return site, ada, client, csrf


def _grades(client) -> dict[str, str]:
    lines = list(csv.reader(io.StringIO(client.get("/i/c/1/grades.csv").text)))
    return dict(zip(lines[0], lines[1], strict=True))


def test_a_late_hand_in_spends_a_day_and_counts_in_full(make, graded):
    site, ada, client, csrf = _late_hand_in(make, graded, "2", timedelta(hours=3))
    grades = _grades(client)
    assert (grades["helpers"], grades["late days used"]) == ("10", "1")
    assert "<td>1 of 2</td>" in client.get("/i/c/1").text
    assert re.search(r"<td>1</td><td>1</td>\s*<td>helpers: 1</td>",
                     client.get("/i/c/1/late-days").text)
    mine = site.client.get(f"/s/{ada}").text
    assert "you have used 1 of 2, 1 left" in mine
    assert "You spent 1 late day(s) on it" in mine
    assert "Deadline: 2026-03-03 12:00 UTC" in mine  # theirs, a day later
    assert "(late)" not in site.client.get(f"/s/{ada}/attempts/1").text
    student = site.service.students.by_id(1, 1)
    assert Poster(site.service, lambda: None)._state(student, "helpers", 10).score_given == 10


def test_staff_refund_the_days_and_an_extension_gives_them_back(make, graded):
    site, ada, client, csrf = _late_hand_in(make, graded, "2", timedelta(hours=3))
    refunded = client.post("/i/c/1/late-days/set", data={
        "csrf": csrf, "student": "1", "exercise": "helpers", "days": "0"})
    assert refunded.status_code == 303, refunded.text
    assert (_grades(client)["helpers"], _grades(client)["late days used"]) == ("5", "0")
    assert "helpers: 0 (set)" in client.get("/i/c/1/late-days").text
    assert "you have used 0 of 2, 2 left" in site.client.get(f"/s/{ada}").text
    client.post("/i/c/1/late-days/set", data={"csrf": csrf, "student": "1",
                                              "exercise": "helpers", "days": ""})
    assert _grades(client)["late days used"] == "1"  # spent by the hand-in again
    # An extension that takes the hand-in on time gives the day back by itself.
    client.post("/i/c/1/students/1/extension/helpers", data={
        "csrf": csrf, "deadline": "2026-03-04T12:00"})
    assert (_grades(client)["helpers"], _grades(client)["late days used"]) == ("10", "0")
    audit = list(csv.DictReader(io.StringIO(client.get("/i/c/1/audit.csv").text)))[::-1]
    assert [(row["action"], row["target"], row["detail"]) for row in audit
            if row["action"].startswith("late days")] == [
        ("late days given", "every student", "2 late day(s) each"),
        ("late days set", "Ada (#1), helpers", "0 day(s)"),
        ("late days set", "Ada (#1), helpers", "as the hand-ins spend them")]
    bad = client.post("/i/c/1/late-days/set", data={"csrf": csrf, "student": "1",
                                                    "exercise": "helpers", "days": "-1"})
    assert bad.status_code == 400 and "whole number" in bad.text


def test_too_few_days_left_leave_the_hand_in_late(make, graded):
    site, ada, client, _ = _late_hand_in(make, graded, "1", timedelta(hours=30))
    grades = _grades(client)
    assert (grades["helpers"], grades["late days used"]) == ("5", "0")
    assert "you have used 0 of 1, 1 left" in site.client.get(f"/s/{ada}").text


def test_a_ta_sets_days_but_gives_none_to_the_course(make, graded):
    site, _, client, csrf = _late_hand_in(make, graded, "2", timedelta(hours=3))
    form = csrf_of(client.get("/i/c/1/staff").text)
    added = client.post("/i/c/1/staff", data={"csrf": form, "name": "Tess", "role": "ta"})
    tess = type(client)(client.app, base_url="http://testserver", follow_redirects=False)
    assert tess.get(re.search(r"http://testserver(/i/[\w-]+)", added.text)[1]).status_code == 303
    page = tess.get("/i/c/1/late-days").text
    assert 'action="/i/c/1/late-days"' not in page  # the allowance is the instructor's
    tess_csrf = csrf_of(page)
    assert tess.post("/i/c/1/late-days", data={"csrf": tess_csrf, "days": "9"}
                     ).status_code == 403
    assert tess.post("/i/c/1/late-days/set", data={
        "csrf": tess_csrf, "student": "1", "exercise": "helpers", "days": "2"}
    ).status_code == 303
    assert _grades(client)["late days used"] == "2"
    # Another course's student is not this course's to set.
    assert tess.post("/i/c/1/late-days/set", data={
        "csrf": tess_csrf, "student": "99", "exercise": "helpers", "days": "2"}
    ).status_code == 404
