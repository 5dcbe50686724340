"""Manual grading beyond one score: an exercise's rubric of named adjustments,
made once and applied to any student's attempt with a click, the score said in
words and counted in grades.csv, canvas.csv and the LMS; comments on lines of the
files; who may do which, and the audit log of it all."""

import csv
import html
import io
import re
from datetime import timedelta

import pytest

from grader.service import rubrics
from grader.service.lti.ags import Poster
from grader.service.models import ExerciseSetting, RubricItem, RubricMark
from tests.service.conftest import FLIPPED, NAME, replaying

MINUS = "\u2212"


def csrf_of(page: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match
    return match.group(1)


def read(client, path: str) -> str:
    """A page's HTML with its character references read (a quote is &#39; there)."""
    return html.unescape(client.get(path).text)


def marks(*items: tuple[str, float]) -> list[RubricMark]:
    return [RubricMark(item=RubricItem(name=name, points=points)) for name, points in items]


def test_the_score_is_the_tests_plus_the_rubric_in_words() -> None:
    applied = marks(("no docstring", -1), ("clear names", 0.5))
    assert rubrics.adjusted(8, 10, applied) == 7.5
    assert rubrics.said(8, 10, applied) == \
        f"8/10 from the tests, {MINUS}1 'no docstring', +0.5 'clear names' = 7.5/10"
    assert rubrics.said(8, 10, []) == "8/10"
    # Kept between 0 and the exercise's points, and said so.
    assert rubrics.adjusted(1, 10, marks(("wrong idea", -3))) == 0
    assert rubrics.said(1, 10, marks(("wrong idea", -3))).endswith(
        "= 0/10 (kept between 0 and 10)")
    assert rubrics.adjusted(9.5, 10, marks(("elegant", 2))) == 10


@pytest.mark.parametrize("name, points, text, why", [
    ("", 1, "t", "a name"), ("n", 0, "t", "other than 0"), ("n", 11, "t", "other than 0"),
    ("n", float("nan"), "t", "other than 0"), ("n", 1, " ", "what the item means")])
def test_a_wrong_item_is_refused_with_a_reason(name, points, text, why) -> None:
    with pytest.raises(ValueError, match=why):
        rubrics.checked(name, points, text, 10)


def _two_attempts(make, graded):
    """Ada and Bob each hand in the flipped helpers (4/10); the instructor's client."""
    site = make(grade=replaying(graded, FLIPPED))
    tokens = site.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"))
    for token in tokens:
        assert site.hand_in(token, (NAME, FLIPPED.read_bytes())).status_code == 303
    site.service.jobs.drain()
    return site, tokens, site.login()


def _column(client, path: str, name: str) -> list[str]:
    lines = list(csv.reader(io.StringIO(client.get(path).text)))
    header = lines[0]
    return [line[header.index(name)] for line in lines[1:] if line[0] != "Points Possible"]


def test_an_item_made_once_is_applied_to_another_student_with_one_click(make, graded):
    site, (ada, bob), client = _two_attempts(make, graded)
    rescored: list[str] = []
    site.service.rescored.listen(lambda course, exercise: rescored.append(exercise))
    csrf = csrf_of(client.get("/i/c/1/attempts/1").text)
    for name, points, text in (("no docstring", "-1", "Say what each function returns."),
                               ("clear names", "0.5", "The names say what they hold.")):
        made = client.post("/i/c/1/attempts/1/rubric/new", data={
            "csrf": csrf, "name": name, "points": points, "text": text})
        assert made.status_code == 303, made.text
    said = f"4/10 from the tests, {MINUS}1 'no docstring', +0.5 'clear names' = 3.5/10"
    assert said in read(client, "/i/c/1/attempts/1")
    mine = read(site.client, f"/s/{ada}/attempts/1")
    assert said in mine and "Say what each function returns." in mine

    # Bob's attempt offers the same items: one click applies one.
    page = client.get("/i/c/1/attempts/2").text
    assert page.count('name="item"') == 2
    docstring = re.search(r'name="item" value="(\d+)">\s*<button type="submit">Apply '
                          rf"{MINUS}1 no docstring", page)
    assert docstring, page
    assert client.post("/i/c/1/attempts/2/rubric", data={
        "csrf": csrf, "item": docstring[1]}).status_code == 303
    assert f"4/10 from the tests, {MINUS}1 'no docstring' = 3/10" in \
        read(site.client, f"/s/{bob}/attempts/2")
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["3.5", "3"]
    assert _column(client, "/i/c/1/canvas.csv", "The minimax helpers") == ["3.5", "3"]
    assert rescored == ["helpers"] * 3  # each change is sent on to the LMS

    # What the LMS is sent: the counted score, with the rubric in words.
    student = site.service.students.by_id(1, 1)
    sent = Poster(site.service, lambda: None)._state(student, "helpers", 10)
    assert sent.score_given == 3.5 and said in sent.comment

    # The same click takes it off again.
    client.post("/i/c/1/attempts/2/rubric", data={"csrf": csrf, "item": docstring[1]})
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["3.5", "4"]
    audit = list(csv.DictReader(io.StringIO(client.get("/i/c/1/audit.csv").text)))[::-1]
    assert [(row["who"], row["action"], row["target"]) for row in audit][-6:] == [
        ("Instructor", "rubric item made", "helpers: 'no docstring'"),
        ("Instructor", "rubric item applied", "attempt #1 of Ada (#1)"),
        ("Instructor", "rubric item made", "helpers: 'clear names'"),
        ("Instructor", "rubric item applied", "attempt #1 of Ada (#1)"),
        ("Instructor", "rubric item applied", "attempt #2 of Bob (#2)"),
        ("Instructor", "rubric item taken off", "attempt #2 of Bob (#2)")]
    assert audit[-5]["detail"] == f"{MINUS}1 'no docstring': Say what each function returns."


def test_the_late_penalty_takes_its_share_of_the_rubric_score_and_a_manual_one_stands(
        make, graded):
    site = make(grade=replaying(graded, FLIPPED))
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", deadline=site.clock.now - timedelta(hours=1),
        late_penalty=0.5, min_minutes=0.0, score_rule="best", visible=True))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FLIPPED.read_bytes()))
    site.service.jobs.drain()
    client = site.login()
    csrf = csrf_of(client.get("/i/c/1/attempts/1").text)
    client.post("/i/c/1/attempts/1/rubric/new", data={
        "csrf": csrf, "name": "right idea", "points": "2", "text": "The search is right."})
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["3"]  # (4 + 2) x 50%
    assert "= 6/10, late: counts 3 after the 50% penalty" in \
        read(site.client, f"/s/{ada}/attempts/1")
    client.post("/i/c/1/attempts/1/notes", data={"csrf": csrf, "kind": "score",
                                                 "score": "9", "text": "Agreed in class."})
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["9"]


def test_a_ta_applies_and_comments_an_instructor_changes_the_rubric(make, graded):
    site, (ada, _), client = _two_attempts(make, graded)
    form = csrf_of(client.get("/i/c/1/staff").text)
    added = client.post("/i/c/1/staff", data={"csrf": form, "name": "Tess", "role": "ta"})
    tess = type(client)(client.app, base_url="http://testserver", follow_redirects=False)
    assert tess.get(re.search(r"http://testserver(/i/[\w-]+)", added.text)[1]).status_code == 303
    tess_csrf = csrf_of(tess.get("/i/c/1/attempts/1").text)
    assert tess.post("/i/c/1/attempts/1/rubric/new", data={
        "csrf": tess_csrf, "name": "tidy", "points": "1", "text": "Easy to read."}
    ).status_code == 303
    item = re.search(r'name="item" value="(\d+)"', tess.get("/i/c/1/attempts/2").text)[1]
    assert tess.post("/i/c/1/attempts/2/rubric", data={"csrf": tess_csrf, "item": item}
                     ).status_code == 303
    # Changing an item changes every attempt it is applied to: the instructor's, on
    # the exercise's page.
    assert "Save tidy" in client.get("/i/c/1/exercises/helpers").text
    listed = tess.get("/i/c/1/exercises/helpers").text
    assert "Save tidy" not in listed and "<strong>1 tidy</strong>: Easy to read." in listed
    change = {"exercise": "helpers", "name": "tidy", "points": "2", "text": "Easy to read."}
    assert tess.post(f"/i/c/1/rubric/{item}", data={"csrf": tess_csrf, **change}
                     ).status_code == 403
    csrf = csrf_of(client.get("/i/c/1/attempts/1").text)
    assert client.post(f"/i/c/1/rubric/{item}", data={"csrf": csrf, **change}
                       ).status_code == 303
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["6", "6"]
    assert client.post(f"/i/c/1/rubric/{item}", data={"csrf": csrf, "exercise": "helpers",
                                                      "remove": "1"}).status_code == 303
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["4", "4"]

    # A comment on a line: the student sees it with that line; the log keeps it.
    assert tess.post("/i/c/1/attempts/1/comments", data={
        "csrf": tess_csrf, "file": NAME, "line": "9999", "text": "Here."}).status_code == 400
    assert tess.post("/i/c/1/attempts/1/comments", data={
        "csrf": tess_csrf, "file": "other.py", "line": "1", "text": "Here."}).status_code == 400
    line = next(number for number, text in
                enumerate(FLIPPED.read_text().splitlines(), 1) if "def min_value" in text)
    assert tess.post("/i/c/1/attempts/1/comments", data={
        "csrf": tess_csrf, "file": NAME, "line": str(line),
        "text": "At a terminal state, whose view is this?"}).status_code == 303
    mine = read(site.client, f"/s/{ada}/attempts/1")
    assert re.search(rf"<strong>Line {line}</strong> <code>def min_value.*</code>: "
                     "At a terminal state, whose view is this\\?", mine), mine
    assert "Remove the comment" not in mine  # the student's page has no staff forms
    comment = re.search(r"/comments/(\d+)/remove", tess.get("/i/c/1/attempts/1").text)[1]
    tess.post(f"/i/c/1/attempts/1/comments/{comment}/remove", data={"csrf": tess_csrf})
    assert "whose view is this" not in site.client.get(f"/s/{ada}/attempts/1").text
    audit = list(csv.DictReader(io.StringIO(client.get("/i/c/1/audit.csv").text)))[::-1]
    assert [(row["who"], row["action"], row["detail"]) for row in audit][-2:] == [
        ("Tess", "line comment made",
         f"{NAME} line {line}: At a terminal state, whose view is this?"),
        ("Tess", "line comment removed",
         f"{NAME} line {line}: At a terminal state, whose view is this? (by Tess)")]


def test_another_course_s_attempts_and_items_are_out_of_reach(make, graded):
    site, _, client = _two_attempts(make, graded)
    csrf = csrf_of(client.get("/i/c/1/attempts/1").text)
    client.post("/i/c/1/attempts/1/rubric/new", data={
        "csrf": csrf, "name": "tidy", "points": "1", "text": "Easy to read."})
    made = client.post("/i/courses", data={"csrf": csrf, "title": "Section B"})
    assert made.status_code == 303, made.text
    # The item of course 1 is not course 2's; the attempt of course 1 is not either.
    assert client.post("/i/c/2/rubric/1", data={"csrf": csrf, "exercise": "helpers",
                                                "remove": "1"}).status_code == 404
    assert client.post("/i/c/2/attempts/1/rubric", data={"csrf": csrf, "item": "1"}
                       ).status_code == 404
    assert _column(client, "/i/c/1/grades.csv", "helpers") == ["5", "4"]
