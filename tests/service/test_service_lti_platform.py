"""LTI 1.3 end to end against a third-party platform (lti1p3platform, from PyPI:
``lti_platform``), on loopback: the tool registered by Dynamic Registration from a
registration URL an instructor made, the course made by its instructor's deep
link, a student's launch and hand-in, the score sent Pending while it waits and
FullyGraded after, with the report's summary and the hand-in's time, the roster
synced; and Canvas's JSON configuration."""

import re
import threading
from collections.abc import Iterator

import pytest
import requests

from grader.service import app
from grader.service.lti import platforms
from grader.service.pool import Pool
from tests.service.conftest import FULL_MARKS, NAME
from tests.service.lms_simulator import Loopback
from tests.service.lti_platform import INSTRUCTOR, ThirdPartyLms
from tests.service.test_service_lti import FIELD, FORM, Wall, by_content, until

pytestmark = pytest.mark.timeout(180)
HELD_SECONDS = 90  # a held grading's backstop: the test releases it long before


class Served:
    """The grader on loopback, grading what it is handed only once ``release`` is set."""

    def __init__(self, make, reports: dict) -> None:
        self.release = threading.Event()
        grade = by_content(reports)

        def held(exercise, files):
            self.release.wait(HELD_SECONDS)
            return grade(exercise, files)

        self.site = make(grade=held, clock=Wall())
        self.service = self.site.service
        self.loop = Loopback(app.build(self.service, Pool(self.service, 1)))
        self.base = self.loop.base
        self.browser = requests.Session()

    def launch(self, url: str) -> requests.Response:
        """A launch as a browser walks it: the LMS, the tool's login, the LMS's
        authorization, whose form is posted to the tool (its answer unfollowed)."""
        action, fields = form(self.browser.get(url, timeout=30).text)
        return self.browser.post(action, data=fields, allow_redirects=False, timeout=30)


def form(page: str) -> tuple[str, dict[str, str]]:
    found = FORM.search(page)
    assert found, page[:2000]
    return found[1].replace("&amp;", "&"), dict(FIELD.findall(found[2]))


@pytest.fixture
def lms() -> Iterator[ThirdPartyLms]:
    platform = ThirdPartyLms()
    platform.person("ines", "Ines Instructor", "ines@example.edu", INSTRUCTOR)
    platform.person("lea", "Lea Learner", "lea@example.edu")
    yield platform
    platform.stop()


@pytest.fixture
def served(make, graded) -> Iterator[Served]:
    grader = Served(make, dict(graded))
    yield grader
    grader.release.set()
    grader.loop.stop()


def registration_url(served: Served) -> str:
    """The first instructor makes a registration URL on their course's LTI page."""
    admin = requests.Session()
    admin.get(f"{served.base}/i/{served.site.secret}", timeout=30)
    page = admin.get(f"{served.base}/i/c/1/lti", timeout=30).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)[1]
    made = admin.post(f"{served.base}/i/c/1/lti/register", data={"csrf": csrf}, timeout=30)
    return re.search(r'<code class="link">([^<]+)</code>', made.text)[1]


def test_registered_by_url_the_tool_launches_grades_and_sends_scores(served, lms):
    url = registration_url(served)
    registered = requests.get(lms.registration_url(url), timeout=30)
    assert registered.status_code == 200, (registered.text[:2000], lms.said)
    assert '<script src="/lti/registered.js" defer></script>' in registered.text
    [platform] = platforms.platforms(served.service.sessions)
    assert (platform.issuer, platform.client_id, platform.deployment_ids) == (
        lms.issuer, lms.tool["client_id"], '["deployment-9"]')
    assert lms.tool["jwks_uri"] == f"{served.base}/lti/jwks.json"
    assert requests.get(lms.registration_url(url), timeout=30).status_code == 404  # once

    # The instructor's deep link makes the course and its assignment.
    picker = served.launch(lms.launch_url("ines", None))
    assert picker.status_code == 200 and "Pick an exercise" in picker.text, picker.text[:2000]
    row = re.search(r'<tr id="pick-helpers">.*?</tr>', picker.text, re.DOTALL)[0]
    added = requests.post(*form(row), timeout=30)
    assert added.status_code == 200, lms.said
    link = re.search(r'data-link="([^"]+)"', added.text)[1]
    assert lms.links[link]["custom"] == {"exercise": "helpers"}
    assert lms.lineitems[lms.links[link]["lineitem"]]["scoreMaximum"] == 10

    # The student's launch and hand-in: Pending while it waits, FullyGraded after.
    opened = served.launch(lms.launch_url("lea", link))
    assert opened.status_code == 303, opened.text[:2000]
    page = served.base + opened.headers["location"].split("#")[0]
    csrf = re.search(r'name="csrf" value="([^"]+)"', served.browser.get(page).text)[1]
    token = page.split("/s/")[1]
    handed = served.browser.post(f"{served.base}/s/{token}/submit/helpers",
                                 data={"csrf": csrf}, allow_redirects=False, timeout=30,
                                 files=[("files", (NAME, FULL_MARKS.read_bytes()))])
    assert handed.status_code == 303
    [waiting] = until(lambda: lms.scores_of(link), f"no Pending score: {lms.said}")
    assert (waiting["userId"], waiting["gradingProgress"], waiting["activityProgress"]) == (
        "lea", "Pending", "Submitted")
    assert "scoreGiven" not in waiting and waiting["submission"]["submittedAt"]
    served.release.set()
    graded = until(lambda: lms.scores_of(link)[1:], "no graded score")[0]
    assert (graded["scoreGiven"], graded["scoreMaximum"], graded["gradingProgress"],
            graded["activityProgress"]) == (10, 10, "FullyGraded", "Completed")
    assert graded["comment"].startswith("10/10. ")
    assert graded["submission"]["submittedAt"] == waiting["submission"]["submittedAt"]

    # The instructor syncs the roster from the course's LTI page.
    lms.person("max", "Max Member", "max@example.edu")
    welcome = served.launch(lms.launch_url("ines", link))
    key = re.search(r'<a class="open" href="(/i/[^"]+)">', welcome.text)[1]
    course = served.browser.get(served.base + key, timeout=30).url
    lti = served.browser.get(f"{course}/lti", timeout=30).text
    action = re.search(r'action="(/i/c/\d+/lti/sync/\d+)"', lti)[1]
    csrf = re.search(r'name="csrf" value="([^"]+)"', lti)[1]
    synced = served.browser.post(served.base + action, data={"csrf": csrf}, timeout=30)
    assert "2 learner(s), 1 new on the roster" in synced.text, (synced.text[:2000], lms.said)


def test_a_registration_the_platform_refuses_registers_nothing(served, lms):
    lms.registration_token = "not-the-one-given"
    url = registration_url(served)
    said = requests.get(lms.registration_url(url).replace("not-the-one-given", "forged"),
                        timeout=30)
    assert said.status_code == 400 and "Not registered" in said.text
    assert platforms.platforms(served.service.sessions) == [] and lms.tool == {}


def test_canvas_json_configuration(served):
    config = requests.get(f"{served.base}/lti/canvas.json", timeout=30).json()
    assert config["oidc_initiation_url"] == f"{served.base}/lti/login"
    assert config["target_link_uri"] == f"{served.base}/lti/launch"
    assert config["public_jwk_url"] == f"{served.base}/lti/jwks.json"
    [canvas] = config["extensions"]
    assert canvas["privacy_level"] == "public"
    assert {placement["placement"] for placement in canvas["settings"]["placements"]} == {
        "assignment_selection", "link_selection"}
    assert "https://purl.imsglobal.org/spec/lti-ags/scope/score" in config["scopes"]
