"""LTI 1.3 end to end: the grader (a real uvicorn server on loopback) against a small
LMS (``lms_simulator``, another), each with its own keys, every message signed and
checked as Canvas and Moodle do. Launches, hand-ins, scores arriving at the LMS,
deep linking, roster sync, and launches that must be refused."""

import copy
import re
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
import requests
from sqlalchemy import func, select

from grader import cli
from grader.service import app, db
from grader.service.lti import ags, platforms
from grader.service.models import (
    LaunchKey,
    LtiContext,
    LtiPlatform,
    LtiScorePost,
    Report,
    Setting,
    Student,
)
from grader.service.pool import Pool
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, Clock, Site
from tests.service.lms_simulator import INSTRUCTOR, Loopback, Platform, Spoil

pytestmark = pytest.mark.timeout(120)
WITHIN = 60  # seconds for a hand-in to be graded and its score to reach the LMS
FORM = re.compile(r'<form method="post" action="([^"]+)">(.*?)</form>', re.DOTALL)
FIELD = re.compile(r'name="([^"]+)" value="([^"]*)"')


class Wall(Clock):
    """The wall clock, moved forward by hand (retries come sooner)."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return db.utcnow() + self.ahead

    def advance(self, **delta: float) -> None:
        self.ahead += timedelta(**delta)


def by_content(reports: dict) -> Callable:
    """Grades as the real grader graded the full-marks and the flipped file (``reports``,
    which a test may change: a suite fixed)."""

    def grade(exercise, files):
        right = files[NAME] == FULL_MARKS.read_bytes()
        return copy.deepcopy(reports[FULL_MARKS if right else FLIPPED])

    return grade


def until(what: Callable, why: str, seconds: float = WITHIN):
    deadline = time.monotonic() + seconds
    while not (found := what()):
        assert time.monotonic() < deadline, why
        time.sleep(0.1)  # the polling interval
    return found


class Grader:
    """The grader served on loopback, with the LMS registered."""

    def __init__(self, site: Site, lms: Platform, reports: dict) -> None:
        self.site, self.service, self.lms, self.reports = site, site.service, lms, reports
        platforms.register(self.service.sessions,
                           [platforms.PlatformSpec(**lms.registration())])
        self.loop = Loopback(app.build(self.service, Pool(self.service, 1)))
        self.base = lms.tool = self.loop.base
        self.browser = requests.Session()

    def set_up_course(self, sub: str = "turing-sub", context: str = "course-1",
                      lms: Platform | None = None) -> int:
        """The LMS course made known to the grader as its instructor does it: a
        deep-linking launch (the exercise picker); the grader course's id."""
        lms = lms or self.lms
        picker = self.launch(lms.launch_url(sub, None, context=context,
                                            message="LtiDeepLinkingRequest"))
        assert picker.status_code == 200 and "Pick an exercise" in picker.text, picker.text
        with self.service.sessions() as session:
            return session.scalar(select(LtiContext.course_id).join(LtiPlatform).where(
                LtiContext.context_id == context, LtiPlatform.issuer == lms.issuer))

    def launch(self, url: str) -> requests.Response:
        """Walks a launch as a browser does: the LMS's page, the tool's login, the LMS's
        authorization; then posts its form to the tool (the answer, unfollowed)."""
        form = self.form(self.browser.get(url, timeout=30).text)
        return self.browser.post(form[0], data=form[1], allow_redirects=False, timeout=30)

    @staticmethod
    def form(page: str) -> tuple[str, dict[str, str]]:
        """The first form of a page: its action and fields."""
        found = FORM.search(page)
        assert found, page[:2000]
        return found[1].replace("&amp;", "&"), dict(FIELD.findall(found[2]))

    def hand_in(self, page: str, path) -> None:
        token = page.split("/s/")[1]
        student = self.service.students.by_token(token)
        assert student is not None, page
        csrf = re.search(r'name="csrf" value="([^"]+)"', self.browser.get(page).text)[1]
        answer = self.browser.post(f"{self.base}/s/{token}/submit/helpers",
                                   data={"csrf": csrf}, allow_redirects=False,
                                   files=[("files", (NAME, path.read_bytes()))], timeout=30)
        assert answer.status_code == 303, answer.text

    def posts(self) -> list[LtiScorePost]:
        """The graded scores' posts (a Pending one is sent too if the poster saw a
        hand-in wait: how soon grading is, is no test's business)."""
        with self.service.sessions() as session:
            return list(session.scalars(select(LtiScorePost).where(
                LtiScorePost.grading_progress == "FullyGraded").order_by(LtiScorePost.id)))

    def scanned(self) -> bool:
        """Whether the poster has looked at every report kept so far."""
        with self.service.sessions() as session:
            seen = session.get(Setting, ags.SEEN)
            newest = session.scalar(select(func.max(Report.id)))
            return seen is not None and int(seen.value) == newest

    def count(self, model) -> int:
        with self.service.sessions() as session:
            return session.scalar(select(func.count()).select_from(model))


@pytest.fixture
def lms() -> Iterator[Platform]:
    platform = Platform()
    platform.person("ada-sub", "Ada Lovelace", "ada@example.edu")
    platform.person("turing-sub", "Alan Turing", "alan@example.edu", INSTRUCTOR)
    platform.assignment("link-1", "helpers")
    yield platform
    platform.stop()


@pytest.fixture
def grader(make, graded, lms) -> Iterator[Grader]:
    reports = dict(graded)
    served = Grader(make(grade=by_content(reports), clock=Wall()), lms, reports)
    served.course = served.set_up_course()
    yield served
    served.loop.stop()


def opened(answer: requests.Response, grader: Grader) -> str:
    assert answer.status_code == 303, answer.text[:2000]
    return grader.base + answer.headers["location"]


def test_a_students_launch_opens_their_page_and_their_scores_reach_the_lms(grader, lms):
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    assert page.endswith("#helpers")
    shown = grader.browser.get(page).text
    assert "<h1>Ada Lovelace</h1>" in shown
    # One of the roster's students now, with no personal link mailed.
    roster = grader.service.students.of_course(grader.course)
    assert [s.email for s in roster] == ["ada@example.edu"]

    grader.hand_in(page.split("#")[0], FULL_MARKS)
    score = until(lambda: lms.scores_of("link-1"), "no score reached the LMS")[0]
    assert (score["scoreGiven"], score["scoreMaximum"]) == (10, 10)
    assert (score["userId"], score["gradingProgress"], score["activityProgress"]) == \
        ("ada-sub", "FullyGraded", "Completed")

    assert score["comment"].startswith("10/10. ") and score["submission"]["submittedAt"]
    # A worse attempt leaves the best score counting: no other score is sent (the poster
    # may have seen it wait: then 10, Pending, and 10 again).
    grader.hand_in(page.split("#")[0], FLIPPED)
    until(lambda: grader.service.queue.counts()["done"] == 2, "not graded")
    until(grader.scanned, "the poster did not look at the second report")
    assert [one["scoreGiven"] for one in lms.scores_of("link-1")] in ([10], [10, 10])
    assert {one.get("scoreGiven") for one in lms.scores_of("link-1", None)} <= {10, None}
    assert all(post.state == "sent" for post in grader.posts())


def test_an_assignments_launch_opens_its_exercise_unless_its_staff_hid_it(grader, lms):
    # The launch alone opens the exercise: the instructor added it to the LMS.
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    course = grader.service.students.by_token(page.split("/s/")[1].split("#")[0]).course_id
    assert grader.service.term.setting(course, "helpers").visible
    assert "/submit/helpers" in grader.browser.get(page).text
    # An exercise its staff saved hidden stays hidden however often it is launched.
    hidden = grader.service.term.setting(course, "helpers")
    hidden.visible = False
    grader.service.term.save_setting(hidden)
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    assert not grader.service.term.setting(course, "helpers").visible
    assert "/submit/helpers" not in grader.browser.get(page).text  # no hand-in form


def test_a_regrade_posts_the_new_score(grader, lms):
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    until(lambda: lms.scores_of("link-1"), "no score reached the LMS")
    # A fixed suite (a new grader version) finds a mistake in what got full marks.
    grader.reports[FULL_MARKS] = grader.reports[FLIPPED]
    grader.service.options.version = "fixed"
    assert grader.service.jobs.regrade(grader.course, "helpers").queued == 1
    again = until(lambda: lms.scores_of("link-1")[1:], "the regrade's score not sent")
    assert again[0]["scoreGiven"] == 4 and again[0]["userId"] == "ada-sub"


def test_a_change_of_rules_posts_the_score_that_counts_now(grader, lms):
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    until(lambda: lms.scores_of("link-1"), "no score reached the LMS")
    grader.hand_in(page.split("#")[0], FLIPPED)
    until(lambda: grader.service.queue.counts()["done"] == 2, "not graded")
    setting = grader.service.term.setting(grader.course, "helpers")
    setting.score_rule = "last"
    grader.service.term.save_setting(setting)
    again = until(lambda: lms.scores_of("link-1")[1:], "the new rule's score not sent")
    assert [score["scoreGiven"] for score in lms.scores_of("link-1")] == [10, 4]
    assert again[0]["userId"] == "ada-sub"


def test_the_last_attempt_rule_posts_the_last_score(grader, lms):
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    until(lambda: lms.scores_of("link-1"), "no score reached the LMS")
    setting = grader.service.term.setting(grader.course, "helpers")
    setting.score_rule = "last"
    grader.service.term.save_setting(setting)
    grader.hand_in(page.split("#")[0], FLIPPED)
    second = until(lambda: lms.scores_of("link-1")[1:], "the last attempt's score not sent")
    assert second[0]["scoreGiven"] == 4
    assert [post.score_given for post in grader.posts()] == [10, 4]


def test_a_refused_score_is_sent_again_and_recorded(grader, lms):
    lms.refuse_scores = 2
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    for attempts in (1, 2):
        post = until(lambda a=attempts: [p for p in grader.posts() if p.attempts == a],
                     f"attempt {attempts} not made")[0]
        assert post.state == "waiting" and post.last_error.startswith(
            "LtiServiceException: HTTP 503"), post.last_error
        grader.site.clock.advance(minutes=10)  # its retry is due
    sent = until(lambda: [p for p in grader.posts() if p.state == "sent"], "never sent")[0]
    assert (sent.attempts, sent.last_error, sent.score_given) == (3, None, 10)
    assert len(lms.scores_of("link-1")) == 1


def test_a_score_the_lms_keeps_refusing_is_marked_failed(grader, lms):
    lms.refuse_scores = 99
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    grader.hand_in(page.split("#")[0], FULL_MARKS)
    for attempts in range(1, len(ags.RETRY_SECONDS) + 1):
        until(lambda a=attempts: [p for p in grader.posts() if p.attempts == a],
              f"attempt {attempts} not made")
        grader.site.clock.advance(minutes=10)
    failed = until(lambda: [p for p in grader.posts() if p.state == "failed"], "not failed")[0]
    assert failed.attempts == len(ags.RETRY_SECONDS) + 1, lms.said
    assert "HTTP 503" in failed.last_error, (failed.last_error, lms.said)
    assert lms.scores_of("link-1") == [], lms.said


def test_a_login_from_an_unknown_platform_is_refused(grader, lms):
    answer = grader.browser.get(f"{grader.base}/lti/login", params={
        "iss": "https://lms.example.invalid", "login_hint": "ada-sub",
        "target_link_uri": f"{grader.base}/lti/launch"}, allow_redirects=False, timeout=30)
    assert answer.status_code == 400 and "<h1>Launch refused</h1>" in answer.text
    assert "not found in settings" in answer.text
    # Nor does anyone but the instructor see the LTI page.
    assert grader.browser.get(f"{grader.base}/i/c/1/lti", timeout=30).status_code == 403


def test_an_instructors_launch_opens_the_gradebook_and_syncs_the_roster(grader, lms):
    lms.person("bob-sub", "Bob", "bob@example.edu")
    with grader.service.sessions() as session:  # the roster came from this LMS
        platform = session.scalar(select(LtiPlatform.id))
    grader.service.students.import_roster(grader.course, [("Bob from the CSV", "bob@example.edu")],
                                          match_platform=platform)
    welcome = grader.launch(lms.launch_url("turing-sub", "link-1"))
    assert welcome.status_code == 200 and "<h1>Course course-1</h1>" in welcome.text
    gradebook = re.search(r'<a class="open" href="(/i/[^"]+)">', welcome.text)[1]
    shown = grader.browser.get(grader.base + gradebook)  # the key becomes the cookie
    assert shown.url == f"{grader.base}/i/c/{grader.course}"
    assert "<h1>Gradebook of Course course-1</h1>" in shown.text
    # Staff are not students.
    assert grader.service.students.of_course(grader.course)[0].name == "Bob from the CSV"

    page = grader.browser.get(f"{grader.base}/i/c/{grader.course}/lti").text
    assert f"{grader.base}/lti/jwks.json" in page and lms.issuer in page
    action = re.search(r'action="(/i/c/\d+/lti/sync/\d+)"', page)[1]
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]
    synced = grader.browser.post(grader.base + action, data={"csrf": csrf}, timeout=30)
    assert synced.status_code == 200 and "2 learner(s), 1 new on the roster" in synced.text
    assert sorted((s.name, s.email) for s in grader.service.students.of_course(grader.course)) == [
        ("Ada Lovelace", "ada@example.edu"), ("Bob from the CSV", "bob@example.edu")]


def test_deep_linking_adds_an_assignment_that_opens_the_exercise_picked(grader, lms):
    picker = grader.launch(lms.launch_url("turing-sub", None,
                                          message="LtiDeepLinkingRequest"))
    assert picker.status_code == 200 and "Pick an exercise" in picker.text
    row = re.search(r'<tr id="pick-decision">.*?</tr>', picker.text, re.DOTALL)[0]
    action, fields = grader.form(row)
    added = requests.post(action, data=fields, timeout=30)
    assert added.status_code == 200, lms.said
    link = re.search(r'data-link="([^"]+)"', added.text)[1]
    assert lms.links[link]["exercise"] == "decision"
    assert lms.lineitems[lms.links[link]["lineitem"]]["scoreMaximum"] == \
        grader.service.exercises["decision"].max_score

    page = opened(grader.launch(lms.launch_url("ada-sub", link)), grader)
    assert page.endswith("#decision")
    # A student can't add assignments.
    refused = grader.launch(lms.launch_url("ada-sub", None, message="LtiDeepLinkingRequest"))
    assert refused.status_code == 403 and "only the course" in refused.text


@pytest.mark.parametrize("spoil, why", [
    (Spoil(issuer="https://lms.example.invalid"), "not found in settings"),
    (Spoil(expired=True), "Signature has expired"),
    (Spoil(deployment="deployment-unknown"), "Unable to find deployment"),
    (Spoil(forged=True), "Signature verification failed"),
], ids=["wrong-issuer", "expired", "unknown-deployment", "forged-signature"])
def test_a_bad_launch_is_refused_with_a_clear_page(grader, lms, spoil, why):
    answer = grader.launch(lms.launch_url("ada-sub", "link-1", spoil=spoil))
    assert answer.status_code == 400
    assert "<h1>Launch refused</h1>" in answer.text and why in answer.text, answer.text
    assert "Open the assignment again from your course" in answer.text
    assert grader.count(LaunchKey) == 0 and grader.service.students.of_course(grader.course) == []


def test_a_replayed_launch_is_refused(grader, lms):
    form = grader.form(grader.browser.get(lms.launch_url("ada-sub", "link-1"),
                                          timeout=30).text)
    first = grader.browser.post(form[0], data=form[1], allow_redirects=False, timeout=30)
    assert first.status_code == 303
    again = grader.browser.post(form[0], data=form[1], allow_redirects=False, timeout=30)
    assert again.status_code == 400 and "State already used" in again.text
    # Its id_token with a fresh state (a cookie the attacker got): the nonce is spent.
    login = grader.browser.get(lms.launch_url("ada-sub", "link-1"), timeout=30)
    state = grader.form(login.text)[1]["state"]
    stolen = grader.browser.post(form[0], data={**form[1], "state": state},
                                 allow_redirects=False, timeout=30)
    assert stolen.status_code == 400 and "Invalid Nonce" in stolen.text
    # And from a browser without the login's state cookie.
    fresh = grader.form(grader.browser.get(lms.launch_url("ada-sub", "link-1"),
                                         timeout=30).text)
    elsewhere = requests.post(fresh[0], data=fresh[1], allow_redirects=False, timeout=30)
    assert elsewhere.status_code == 400 and "State not found" in elsewhere.text
    assert grader.count(LaunchKey) == 1


def test_a_launch_leaves_no_token_in_the_log_and_cookies_fit_plain_http(grader, lms, caplog):
    caplog.set_level("INFO", logger="grader.service")
    login = grader.browser.get(lms.launch_url("ada-sub", "link-1"), timeout=30)
    cookie = next(c for c in login.history[1].headers.get("set-cookie", "").split(", ")
                  if c.startswith("lti1p3-state"))
    # Plain http on loopback: Lax and not Secure (browsers drop SameSite=None without it).
    assert "SameSite=lax" in cookie and "Secure" not in cookie and "HttpOnly" in cookie
    form = grader.form(login.text)
    grader.browser.post(form[0], data=form[1], allow_redirects=False, timeout=30)
    grader.browser.post(form[0], data=form[1], allow_redirects=False, timeout=30)
    said = caplog.text
    assert "LTI launch refused" in said
    assert form[1]["id_token"] not in said and form[1]["id_token"].split(".")[1] not in said


def test_cli_registers_platforms_lists_them_and_rotates_the_key(tmp_path, capsys):
    data = tmp_path / "data"
    listing = tmp_path / "platforms.toml"
    listing.write_text("\n".join(
        f'[[platform]]\nissuer = "{issuer}"\nclient_id = "abc"\ndeployment_ids = ["1"]\n'
        f'key_set_url = "{issuer}/keys"\nauth_login_url = "{issuer}/auth"\n'
        f'auth_token_url = "{issuer}/token"\n'
        for issuer in ("https://canvas.instructure.com", "https://moodle.example.edu")))
    assert cli.main(["lti", "register", "--data", str(data), "--file", str(listing)]) == 0
    assert cli.main(["lti", "register", "--data", str(data), "--issuer",
                     "https://moodle.example.edu", "--client-id", "abc", "--deployment", "7",
                     "--keyset-url", "https://moodle.example.edu/keys", "--auth-url",
                     "https://moodle.example.edu/auth", "--token-url",
                     "https://moodle.example.edu/token"]) == 0
    assert cli.main(["lti", "list", "--data", str(data), "--url",
                     "https://grader.example.edu"]) == 0
    said = capsys.readouterr().out
    assert "registered https://canvas.instructure.com" in said
    assert "updated https://moodle.example.edu" in said
    assert "https://grader.example.edu/lti/login" in said
    # Registered again, a platform gains the deployment: the first keeps working.
    assert 'https://moodle.example.edu  client id abc  deployments ["1", "7"]' in said
    assert cli.main(["lti", "register", "--data", str(data), "--issuer", "x"]) == 2

    sessions = db.sessions(db.connect(db.sqlite_url(data)))
    first = platforms.keys(sessions, db.utcnow())
    assert cli.main(["lti", "rotate-key", "--data", str(data)]) == 0
    rotated = platforms.keys(sessions, db.utcnow())
    assert rotated[1] == first[0] and rotated[0] != first[0]
    kids = [key["kid"] for key in platforms.jwks(rotated)["keys"]]
    assert len(set(kids)) == 2


def test_launch_keys_lapse(grader, lms):
    page = opened(grader.launch(lms.launch_url("ada-sub", "link-1")), grader)
    assert grader.browser.get(page).status_code == 200
    grader.site.clock.advance(hours=9)
    assert grader.browser.get(page).status_code == 404
    with grader.service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(Student)) == 1
