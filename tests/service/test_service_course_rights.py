"""Staff rights end at their course, for people too: the instructor of one course makes
a new login link for someone who also teaches another (a coordinator), and the link
opens their own course alone; an LMS course's launch signs its staff in to the grader
course bound to it alone, and its instructor's reset opens nothing of the other; and
each change to a person is recorded in every course they are on the staff of. On the
service in-process and, for LTI, against a third-party platform (lti1p3platform)."""

import csv
import io
import re
from collections.abc import Iterator

import pytest
import requests
from sqlalchemy import select
from starlette.testclient import TestClient

from grader.service.models import CourseStaff, LtiContext, LtiUser
from tests.service.conftest import FULL_MARKS, NAME, Site, replaying
from tests.service.lti_platform import INSTRUCTOR, ThirdPartyLms
from tests.service.postgres_server import database, postgres  # noqa: F401
from tests.service.test_service_lti import until
from tests.service.test_service_lti_platform import Served, form, registration_url

pytestmark = pytest.mark.timeout(180)
LINK = re.compile(r'<code class="link">https?://[^/<]+(/i/[\w-]+)</code>')
# The course 1 pages the attacker aims at: its gradebook, an attempt, a student, the
# grades, its staff and its audit log.
COURSE_ONE = ("", "/attempts/1", "/students/1", "/grades.csv", "/staff", "/audit")


def csrf_of(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page)[1]


def signed_in(site: Site, link: str) -> TestClient:
    """A browser of its own, signed in by a login link."""
    browser = TestClient(site.client.app, base_url="http://testserver", follow_redirects=False)
    assert browser.get(link).status_code == 303
    return browser


def new_link(browser, base: str, course: str, name: str) -> str:
    """The path of a new login link made for ``name`` on the course's Staff page."""
    staff = browser.get(f"{base}/i/c/{course}/staff").text
    person = re.search(rf'<th scope="row">{name}</th>.*?/staff/(\d+)/link', staff, re.DOTALL)
    made = browser.post(f"{base}/i/c/{course}/staff/{person[1]}/link",
                        data={"csrf": csrf_of(staff)})
    assert made.status_code == 200, made.text[:2000]
    return LINK.search(made.text)[1]


def audit(browser, base: str, course: int) -> list[tuple[str, str, str, str]]:
    """The course's audit log: who, action, target and detail, oldest first."""
    rows = csv.DictReader(io.StringIO(browser.get(f"{base}/i/c/{course}/audit.csv").text))
    return [(row["who"], row["action"], row["target"], row["detail"]) for row in rows][::-1]


def two_courses(site: Site) -> tuple[TestClient, TestClient]:
    """The coordinator (the first instructor) teaches course 1, where Ada handed in,
    and makes Section B, course 2, whose instructor they add: Bea. Both browsers."""
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    assert site.service.jobs.drain() == 1
    coordinator = site.login()
    made = coordinator.post("/i/courses", data={"csrf": csrf_of(coordinator.get("/i").text),
                                                "title": "Section B"})
    assert made.headers["location"] == "/i/c/2"  # their link opens the course they made
    staff = coordinator.get("/i/c/2/staff").text
    added = coordinator.post("/i/c/2/staff", data={"csrf": csrf_of(staff), "name": "Bea",
                                                   "role": "instructor"})
    bea = signed_in(site, LINK.search(added.text)[1])
    assert bea.get("/i/c/2").status_code == 200
    assert [bea.get(f"/i/c/1{path}").status_code for path in COURSE_ONE] == [403] * 6
    return coordinator, bea


def test_a_link_made_on_one_courses_staff_page_opens_that_course_alone(make, graded,
                                                                         database):  # noqa: F811
    site = make(grade=replaying(graded, FULL_MARKS), database=database)
    coordinator, bea = two_courses(site)
    # Bea makes a new link for the coordinator on her course's Staff page.
    taken = signed_in(site, new_link(bea, "", "2", "Instructor"))
    assert "Section B" in taken.get("/i/c/2").text
    assert [taken.get(f"/i/c/1{path}").status_code for path in COURSE_ONE] == [403] * 6
    form = csrf_of(taken.get("/i/c/2").text)
    for course in (1, 2):  # course 1's attempt, by its course and through Section B
        posted = taken.post(f"/i/c/{course}/attempts/1/notes", data={
            "csrf": form, "kind": "score", "score": "0", "text": "Taken over."})
        assert posted.status_code in (403, 404)
    assert site.count("attempt_notes") == 0
    assert ">Course</a>" not in taken.get("/i").text
    # The coordinator's own link keeps course 1; it no longer opens course 2, as the
    # page that made the new one said.
    assert coordinator.get("/i/c/1/attempts/1").status_code == 200
    assert coordinator.get("/i/c/2").status_code == 403
    # Both courses' logs say who made the link; course 1's, where it was made.
    change = ("Bea", "staff link", "Instructor (#1)")
    assert (*change, "instructor; made in Section B (#2)") in audit(coordinator, "", 1)
    assert (*change, "instructor") in audit(taken, "", 2)


def test_the_operators_link_opens_every_course_of_the_first_instructor(make, graded):
    site = make(grade=replaying(graded, FULL_MARKS))
    coordinator, bea = two_courses(site)
    stolen = new_link(bea, "", "2", "Instructor")  # Bea holds a copy
    newer = site.service.access.new_instructor_secret()  # --new-instructor-link
    operator = signed_in(site, f"/i/{newer}")
    assert [operator.get(f"/i/c/{course}").status_code for course in (1, 2)] == [200, 200]
    # The credentials before open neither course now: the old link, and Bea's copy.
    assert coordinator.get("/i/c/1").status_code == 403
    assert TestClient(site.client.app).get(stolen, follow_redirects=False).status_code == 404
    for course in (1, 2):
        assert ("the service", "staff link", "Instructor (#1)",
                "by the operator's command: a new login link for 2 course(s)") in \
            audit(operator, "", course)


def test_every_change_to_a_person_is_recorded_in_each_of_their_courses(make, graded,
                                                                         database):  # noqa: F811
    site = make(grade=replaying(graded, FULL_MARKS), database=database)
    coordinator, bea = two_courses(site)
    staff = bea.get("/i/c/2/staff").text
    person = re.search(r'<th scope="row">Instructor</th>.*?/staff/(\d+)/revoke', staff,
                       re.DOTALL)[1]
    for change in ("revoke", "restore"):
        answer = bea.post(f"/i/c/2/staff/{person}/{change}", data={"csrf": csrf_of(staff)})
        assert answer.status_code == 303
    added = bea.post("/i/c/2/staff", data={"csrf": csrf_of(staff), "name": "Tess",
                                           "role": "ta"})
    assert added.status_code == 200
    elsewhere = "instructor; made in Section B (#2)"
    assert audit(coordinator, "", 1)[-3:] == [
        ("Instructor", "staff added", "Instructor (#1)", elsewhere.replace(
            "instructor", "instructor, as the course's maker")),
        ("Bea", "staff revoked", "Instructor (#1)", elsewhere),
        ("Bea", "staff restored", "Instructor (#1)", elsewhere)]
    assert [row[:3] for row in audit(bea, "", 2)[-3:]] == [
        ("Bea", "staff revoked", "Instructor (#1)"), ("Bea", "staff restored", "Instructor (#1)"),
        ("Bea", "staff added", "Tess (#3)")]
    # Tess is on course 2's staff alone: nothing of her is written in course 1.
    assert not [row for row in audit(coordinator, "", 1) if "Tess" in row[2]]


# -- the same through LTI alone ----------------------------------------------------------------

@pytest.fixture
def lms() -> Iterator[ThirdPartyLms]:
    platform = ThirdPartyLms()
    platform.person("cora", "Cora Coordinator", "cora@example.edu", INSTRUCTOR, context="c-1")
    platform.person("cora", "Cora Coordinator", "cora@example.edu", INSTRUCTOR, context="c-2")
    platform.person("gil", "Gil Second", "gil@example.edu", INSTRUCTOR, context="c-2")
    platform.person("lea", "Lea Learner", "lea@example.edu", context="c-1")
    yield platform
    platform.stop()


@pytest.fixture
def served(make, graded) -> Iterator[Served]:
    grader = Served(make, dict(graded))
    grader.release.set()  # graded at once: no test here waits on a hand-in
    yield grader
    grader.loop.stop()


def assignment(served: Served, lms: ThirdPartyLms, context: str) -> tuple[int, str]:
    """Cora adds the tool to an LMS course through its picker: the grader course it
    made, and the assignment's link."""
    picker = served.launch(lms.launch_url("cora", None, context))
    assert picker.status_code == 200 and "Pick an exercise" in picker.text, picker.text[:2000]
    row = re.search(r'<tr id="pick-helpers">.*?</tr>', picker.text, re.DOTALL)[0]
    link = re.search(r'data-link="([^"]+)"', requests.post(*form(row), timeout=30).text)[1]
    with served.service.sessions() as session:
        return session.scalar(select(LtiContext.course_id).where(
            LtiContext.context_id == context)), link


def launched(served: Served, lms: ThirdPartyLms, sub: str, link: str,
             context: str) -> requests.Session:
    """A browser of its own, signed in by a staff launch of the LMS course."""
    browser = requests.Session()
    answer = browser.post(*form(browser.get(lms.launch_url(sub, link, context), timeout=30)
                                .text), allow_redirects=False, timeout=30)
    key = re.search(r'<a class="open" href="(/i/[^"]+)">', answer.text)
    assert key, answer.text[:2000]
    assert browser.get(served.base + key[1], allow_redirects=False,
                       timeout=30).status_code == 303
    return browser


def test_an_lms_courses_instructor_opens_nothing_of_another_course(served, lms):
    registered = requests.get(lms.registration_url(registration_url(served)), timeout=30)
    assert registered.status_code == 200, lms.said
    first, first_link = assignment(served, lms, "c-1")
    second, second_link = assignment(served, lms, "c-2")
    assert first != second
    with served.service.sessions() as session:  # one identity, one person, two courses
        [cora] = session.scalars(select(LtiUser.person_id).where(LtiUser.sub == "cora"))
        assert set(session.scalars(select(CourseStaff.course_id).where(
            CourseStaff.person_id == cora))) == {first, second}
    opened = served.launch(lms.launch_url("lea", first_link, "c-1"))
    assert opened.status_code == 303, opened.text[:2000]
    token = opened.headers["location"].split("/s/")[1].split("#")[0]
    page = served.browser.get(f"{served.base}/s/{token}", timeout=30).text
    assert served.browser.post(f"{served.base}/s/{token}/submit/helpers", timeout=30,
                               data={"csrf": csrf_of(page)}, allow_redirects=False,
                               files=[("files", (NAME, FULL_MARKS.read_bytes()))]
                               ).status_code == 303
    until(lambda: served.service.queue.counts()["done"] == 1, "not graded")
    [attempt] = served.service.students.attempts(
        served.service.students.of_course(first)[0].id)
    one = f"{served.base}/i/c/{first}"
    aimed = ("", f"/attempts/{attempt.id}", f"/students/{attempt.student_id}", "/grades.csv")

    # Each launch of Cora's signs her in to its own LMS course's grader course alone.
    cora_first = launched(served, lms, "cora", first_link, "c-1")
    cora_second = launched(served, lms, "cora", second_link, "c-2")
    assert cora_first.get(f"{one}{aimed[1]}", timeout=30).status_code == 200
    assert [cora_second.get(f"{one}{path}", timeout=30).status_code for path in aimed] == \
        [403] * 4
    # Gil, the second LMS course's instructor, makes Cora a new link there.
    gil = launched(served, lms, "gil", second_link, "c-2")
    taken = requests.Session()
    assert taken.get(served.base + new_link(gil, served.base, str(second), "Cora Coordinator"),
                     allow_redirects=False, timeout=30).status_code == 303
    assert taken.get(f"{served.base}/i/c/{second}", timeout=30).status_code == 200
    assert [taken.get(f"{one}{path}", timeout=30).status_code for path in aimed] == [403] * 4
    posted = taken.post(f"{one}/attempts/{attempt.id}/notes", timeout=30, data={
        "csrf": csrf_of(taken.get(f"{served.base}/i/c/{second}", timeout=30).text),
        "kind": "score", "score": "0", "text": "Taken over."})
    assert posted.status_code == 403 and served.site.count("attempt_notes") == 0
    # Cora's launch from the first LMS course still opens its grader course; her launch
    # from the second no longer does (the new link took its place there).
    assert cora_first.get(f"{one}{aimed[1]}", timeout=30).status_code == 200
    assert cora_second.get(f"{served.base}/i/c/{second}", timeout=30).status_code == 403
    # And the first course's log says what Gil did to her, and where.
    rows = audit(cora_first, served.base, first)
    assert ("Gil Second", "staff link", f"Cora Coordinator (#{cora})",
            f"instructor; made in LMS c-2 (#{second})") in rows
