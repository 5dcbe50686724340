"""The LTI flow in a real headless Chromium: from the LMS's assignment through the
login and the self-submitting launch form to the student's page, a hand-in through
the page's own form, its report, and the score at the LMS; then the instructor's
launch to the gradebook and the LTI page's record of the score sent; the exercise
picker of a deep-linking launch, and a launch refused. axe-core checks every page.

Screenshots go to test-artifacts/screenshots/ (lti-*.png).
"""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from tests.service.conftest import FULL_MARKS
from tests.service.test_service_browser import (  # noqa: F401 (fixtures)
    driver,
    follow,
    graded_attempt,
    hand_in,
    shot,
    tools,
    words,
)
from tests.service.test_service_lti import grader, lms, until  # noqa: F401 (fixtures)

pytestmark = pytest.mark.timeout(180)


def test_a_launch_hand_in_and_score_in_the_browser(grader, lms, driver):  # noqa: F811
    driver.get(lms.launch_url("ada-sub", "link-1"))
    WebDriverWait(driver, 30).until(expected_conditions.url_contains("/s/"))
    page = driver.current_url.split("#")[0]
    assert page.startswith(f"{grader.base}/s/") and driver.current_url.endswith("#helpers")
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Ada Lovelace"
    shot(driver, "lti-1-student-launched")

    hand_in(driver, page, FULL_MARKS)
    row = graded_attempt(driver, 1)
    assert words(row).endswith(" 10/10")
    shot(driver, "lti-2-student-graded")
    follow(driver, row.find_element(By.TAG_NAME, "a"))
    assert words(driver.find_element(By.CSS_SELECTOR, "p.verdict")).startswith("10/10 points")
    score = until(lambda: lms.scores_of("link-1"), "no score reached the LMS")[0]
    assert (score["userId"], score["scoreGiven"], score["scoreMaximum"]) == ("ada-sub", 10, 10)

    driver.get(lms.launch_url("turing-sub", "link-1"))
    opening = WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located(
        (By.CSS_SELECTOR, "a.open")))
    shot(driver, "lti-3-instructor-launched")
    follow(driver, opening)
    assert driver.current_url == f"{grader.base}/i/c/{grader.course}"
    table = driver.find_element(By.CSS_SELECTOR, "table.gradebook")
    assert "Ada Lovelace ada@example.edu" in words(table)
    follow(driver, driver.find_element(By.LINK_TEXT, "LTI (Canvas, Moodle)"))
    sent = [words(row) for row in driver.find_elements(By.CSS_SELECTOR,
                                                        "table.lti-posts tr.sent")]
    assert any(row.startswith("Ada Lovelace helpers 10/10 FullyGraded sent 1") for row in sent)
    shot(driver, "lti-4-instructor-scores-sent")


def test_the_picker_and_a_refused_launch_in_the_browser(grader, lms, driver):  # noqa: F811
    driver.get(lms.launch_url("turing-sub", None, message="LtiDeepLinkingRequest"))
    picker = WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located(
        (By.CSS_SELECTOR, "table.picker")))
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Pick an exercise"
    button = picker.find_element(By.CSS_SELECTOR, "#pick-decision button")
    assert words(button).startswith("Use this exercise")
    shot(driver, "lti-5-instructor-picks-an-exercise")

    # A student can't add assignments: the page says why, in words.
    driver.get(lms.launch_url("ada-sub", None, message="LtiDeepLinkingRequest"))
    said = WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located(
        (By.CSS_SELECTOR, "p.message")))
    assert "only the course" in words(said)
    shot(driver, "lti-6-student-refused")
