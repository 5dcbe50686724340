"""Who is who, attacked as a student and as an LMS admin would: a staff launch from a
course the grader does not know gets nothing beyond it, an email claim never ties
anyone to another's record, a token for another client (azp) is refused, the
spec's role URIs make instructors, TAs and students, a revoked TA opens nothing,
and every change names its author in the audit log. Against the LMS simulator on
loopback (test_service_lti's fixtures)."""

import csv
import io
import re

import pytest
import requests
from sqlalchemy import select

from grader.service.lti import platforms, roles
from grader.service.models import Extension, LtiPlatform, Note
from tests.service.conftest import FULL_MARKS, NAME, replaying
from tests.service.lms_simulator import (
    INSTITUTION_INSTRUCTOR,
    INSTRUCTOR,
    LEARNER,
    TA,
    Platform,
    Spoil,
)
from tests.service.test_service_lti import grader, lms, opened, until  # noqa: F401

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("given, role", [
    ([f"{MEMBERSHIP}#Instructor"], "instructor"),
    (["Instructor"], "instructor"),  # the short name
    ([f"{MEMBERSHIP}#Administrator"], "instructor"),
    ([f"{MEMBERSHIP}/Instructor#TeachingAssistant"], "ta"),  # the sub-role alone
    ([f"{MEMBERSHIP}#Instructor", f"{MEMBERSHIP}/Instructor#TeachingAssistant"], "ta"),
    (["Instructor#TeachingAssistant"], "ta"),
    ([f"{MEMBERSHIP}/Instructor#Grader"], "ta"),
    ([f"{MEMBERSHIP}#Learner"], "student"),
    (["Learner"], "student"),
    ([f"{MEMBERSHIP}/Learner#Learner"], "student"),
    ([], "student"),
    # An institution's role is no role in this course.
    ([INSTITUTION_INSTRUCTOR], "student"),
    ([INSTITUTION_INSTRUCTOR, f"{MEMBERSHIP}#Learner"], "student"),
    (["http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator"], "student"),
    ([f"{MEMBERSHIP}#Mentor"], None),
    ([f"{MEMBERSHIP}#ContentDeveloper"], None),
], ids=lambda value: "+".join(value) if isinstance(value, list) else str(value))
def test_the_specs_roles_map_to_instructor_ta_and_student(given, role):
    assert roles.course_role(given) == role


def staff_cookie(grader, welcome: requests.Response) -> requests.Session:  # noqa: F811
    """A browser of its own, signed in by a staff launch's page."""
    assert welcome.status_code == 200, welcome.text[:2000]
    key = re.search(r'<a class="open" href="(/i/[^"]+)">', welcome.text)[1]
    browser = requests.Session()
    assert browser.get(grader.base + key, allow_redirects=False, timeout=30).status_code == 303
    return browser


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page)[1]


def test_a_staff_launch_from_an_unknown_course_gets_nothing_beyond_it(grader, lms):  # noqa: F811
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    until(lambda: grader.service.queue.counts()["done"] == 1, "not graded")
    # Eve teaches a sandbox course she made in the same LMS, same deployment.
    lms.person("eve-sub", "Eve", "eve@example.edu", INSTRUCTOR, context="sandbox")
    lms.assignment("link-s", "helpers", context="sandbox")
    courses = len(grader.service.access.courses())
    refused = grader.launch(lms.launch_url("eve-sub", "link-s", context="sandbox"))
    assert refused.status_code == 403 and "does not know this course" in refused.text
    # A student's launch from it makes nothing either.
    lms.person("sam-sub", "Sam", "sam@example.edu", LEARNER, context="sandbox")
    assert grader.launch(lms.launch_url("sam-sub", "link-s", context="sandbox")
                         ).status_code == 403
    assert len(grader.service.access.courses()) == courses
    # Her picker makes her own course, and she is its instructor: of nothing else.
    sandbox = grader.set_up_course("eve-sub", "sandbox")
    assert sandbox != grader.course and len(grader.service.access.courses()) == courses + 1
    eve = staff_cookie(grader, grader.launch(lms.launch_url("eve-sub", "link-s",
                                                            context="sandbox")))
    mine = eve.get(f"{grader.base}/i", timeout=30).text
    assert "sandbox" in mine and "course-1" not in mine
    theirs = f"{grader.base}/i/c/{grader.course}"
    assert eve.get(theirs, timeout=30).status_code == 403
    assert eve.get(f"{theirs}/attempts/1", timeout=30).status_code == 403
    assert ">Ada<" not in eve.get(f"{grader.base}/i/c/{sandbox}", timeout=30).text  # a name
    # Ada's attempt through her own course: no such attempt there; a score stands nowhere.
    form = csrf_of(eve.get(f"{grader.base}/i/c/{sandbox}", timeout=30).text)
    for course in (sandbox, grader.course):
        posted = eve.post(f"{grader.base}/i/c/{course}/attempts/1/notes", timeout=30,
                          data={"csrf": form, "kind": "score", "score": "0", "text": "no"})
        assert posted.status_code in (403, 404)
    assert grader.site.count("attempt_notes") == 0
    assert eve.get(f"{grader.base}/i/c/{sandbox}/attempts/1/files.zip",
                   timeout=30).status_code == 404


def test_an_email_claim_never_ties_anyone_to_anothers_record(grader, lms):  # noqa: F811
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    [ada] = grader.service.students.of_course(grader.course)
    # A second account on the same platform, with her email.
    lms.person("mallory-sub", "Mallory", "ada@example.edu")
    theirs = opened(grader.launch(lms.launch_url("mallory-sub", "link-1")), grader)
    shown = grader.browser.get(theirs.split("#")[0], timeout=30).text
    assert "<h1>Mallory</h1>" in shown and "attempts/1" not in shown
    # A second registered platform, whose user has her email too.
    other = Platform()
    try:
        other.tool = grader.base
        platforms.register(grader.service.sessions,
                           [platforms.PlatformSpec(**other.registration())])
        other.person("ada-elsewhere", "Ada?", "ada@example.edu")
        other.person("boss", "Boss", "boss@example.edu", INSTRUCTOR)
        other.assignment("link-x", "helpers")
        grader.set_up_course("boss", "course-1", other)
        found = grader.launch(other.launch_url("ada-elsewhere", "link-x"))
        assert found.status_code == 303
    finally:
        other.stop()
    students = {s.id: s for course in grader.service.access.courses()
                for s in grader.service.students.of_course(course.id)}
    assert len(students) == 3 and students[ada.id].lti_user_id == ada.lti_user_id
    assert [s.id for s in students.values() if s.name in ("Mallory", "Ada?")] != [ada.id]
    assert len(grader.service.students.attempts(ada.id)) == 1
    assert all(grader.service.students.attempts(s.id) == [] for s in students.values()
               if s.id != ada.id)


def test_a_roster_student_is_tied_by_email_once_and_only_from_the_platform_named(grader, lms):  # noqa: F811
    with grader.service.sessions() as session:
        platform = session.scalar(select(LtiPlatform.id))
    grader.service.students.import_roster(grader.course, [("Bea from the CSV", "bea@example.edu")],
                                          match_platform=platform)
    grader.service.students.import_roster(grader.course, [("Cy from the CSV", "cy@example.edu")])
    lms.person("bea-sub", "Bea", "bea@example.edu")
    lms.person("bea-again", "Not Bea", "bea@example.edu")
    lms.person("cy-sub", "Cy", "cy@example.edu")
    for sub in ("bea-sub", "bea-again", "cy-sub"):
        opened(grader.launch(lms.launch_url(sub, "link-1")), grader)
    names = sorted(s.name for s in grader.service.students.of_course(grader.course))
    # Bea's first launch tied her; the second account got a record of its own; Cy's
    # roster named no platform: a launch makes a new student, never ties the CSV's.
    assert names == ["Bea from the CSV", "Cy", "Cy from the CSV", "Not Bea"]


@pytest.mark.parametrize("spoil, refused", [
    (Spoil(azp="another-client"), "authorized party"),
    (Spoil(audience=["grader-tool", "another-client"]), "authorized party"),
    (Spoil(audience=["another-client", "grader-tool"], azp="grader-tool"), "not found"),
    (Spoil(audience=["grader-tool", "another-client"], azp="grader-tool"), None),
    (Spoil(azp="grader-tool"), None),
], ids=["azp-other", "two-audiences-no-azp", "first-audience-other", "azp-ours", "azp-alone"])
def test_a_token_for_another_client_is_refused(grader, lms, spoil, refused):  # noqa: F811
    answer = grader.launch(lms.launch_url("ada-sub", "link-1", spoil=spoil))
    if refused is None:
        assert answer.status_code == 303
    else:
        assert answer.status_code == 400 and refused in answer.text, answer.text[:2000]
        assert grader.service.students.of_course(grader.course) == []


def test_a_ta_grades_changes_no_setting_and_once_revoked_opens_nothing(grader, lms):  # noqa: F811
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    until(lambda: grader.service.queue.counts()["done"] == 1, "not graded")
    lms.person("tom-sub", "Tom the TA", "tom@example.edu", TA)  # the sub-role alone
    tom = staff_cookie(grader, grader.launch(lms.launch_url("tom-sub", "link-1")))
    course = f"{grader.base}/i/c/{grader.course}"
    roster = grader.service.students.of_course(grader.course)
    assert roster[0].name == "Ada Lovelace"  # not a student
    gradebook = tom.get(course, timeout=30).text
    assert "Tom the TA, TA of Course course-1" in gradebook and "Regrade all" not in gradebook
    form = csrf_of(tom.get(f"{course}/attempts/1", timeout=30).text)
    assert tom.post(f"{course}/settings/helpers", data={"csrf": form, "visible": "1"},
                    timeout=30).status_code == 403
    assert tom.get(f"{course}/staff", timeout=30).status_code == 403
    assert tom.post(f"{course}/attempts/1/notes", data={
        "csrf": form, "kind": "comment", "text": "Clean code."}, timeout=30).status_code == 200

    # The instructor revokes him: his launch's sign-in opens nothing, nor does a new launch.
    turing = staff_cookie(grader, grader.launch(lms.launch_url("turing-sub", "link-1")))
    staff = turing.get(f"{course}/staff", timeout=30).text
    person = re.search(r'<th scope="row">Tom the TA</th>.*?/staff/(\d+)/revoke', staff,
                       re.DOTALL)
    revoked = turing.post(f"{course}/staff/{person[1]}/revoke",
                          data={"csrf": csrf_of(staff)}, timeout=30)
    assert revoked.status_code == 200 and "Revoked" in revoked.text
    assert tom.get(course, timeout=30).status_code == 403
    again = grader.launch(lms.launch_url("tom-sub", "link-1"))
    assert again.status_code == 403 and "revoked" in again.text
    # And the audit log names who did what.
    log = turing.get(f"{course}/audit.csv", timeout=30).text
    done = {(row["who"], row["action"]) for row in csv.DictReader(io.StringIO(log))}
    assert {("Tom the TA", "comment noted"), ("Alan Turing", "staff revoked")} <= done
    assert "Tom the TA" in turing.get(f"{course}/audit", timeout=30).text


def test_every_change_names_its_author_in_the_audit_log(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    client = site.login()
    form = csrf_of(client.get("/i/c/1/staff").text)
    added = client.post("/i/c/1/staff", data={"csrf": form, "name": "Tess", "role": "ta"})
    link = re.search(r"http://testserver(/i/[\w-]+)", added.text)[1]
    client.post("/i/c/1/attempts/1/notes", data={"csrf": form, "kind": "score", "score": "7",
                                                 "text": "The idea is right."})
    tess = type(client)(client.app, base_url="http://testserver", follow_redirects=False)
    assert tess.get(link).status_code == 303
    tess_form = csrf_of(tess.get("/i/c/1/students/1").text)
    tess.post("/i/c/1/students/1/extension/helpers", data={
        "csrf": tess_form, "deadline": "2026-04-01T12:00"})
    tess.post("/i/c/1/attempts/1/notes", data={"csrf": tess_form, "kind": "comment",
                                               "text": "Tidy."})
    tess.post("/i/c/1/attempts/1/regrade", data={"csrf": tess_form, "force": "1"})
    rows = list(csv.DictReader(io.StringIO(client.get("/i/c/1/audit.csv").text)))
    done = [(row["who"], row["action"], row["target"]) for row in rows][::-1]
    assert done[-5:] == [
        ("Instructor", "staff added", "Tess (#2)"),
        ("Instructor", "score noted", "attempt #1 of Ada (#1)"),
        ("Tess", "extension set", "Ada (#1), helpers"),
        ("Tess", "comment noted", "attempt #1 of Ada (#1)"),
        ("Tess", "regrade forced", "attempt #1")]
    with site.service.sessions() as session:
        notes = session.scalars(select(Note).order_by(Note.id))
        assert [(note.author, note.person_id) for note in notes] == [
            ("Instructor", 1), ("Tess", 2)]
        assert session.get(Extension, (1, "helpers")).person_id == 2
    assert tess.get("/i/c/1/audit").status_code == 403  # the instructor's
