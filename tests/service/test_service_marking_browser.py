"""Manual grading and late days in a real headless Chromium, against ``minimax-grader
serve``: the staff make a rubric item and comment on a line from the keyboard on an
attempt's page, the student reads both on a phone's screen; the late days page and
a regrade's preview. Every page axe-clean (see ``shot``)."""

import re

import browser
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tests.service import test_service_browser as served
from tests.service.conftest import FLIPPED
from tests.service.test_service_browser import (
    EXERCISE,
    Site,
    follow,
    graded_attempt,
    hand_in,
    shot,
    words,
)

# The served site, its browser and what they need: the same fixtures as there.
tools, site, driver = served.tools, served.site, served.driver
server_log_on_failure = served.server_log_on_failure

pytestmark = pytest.mark.timeout(300)
PHONE = (390, 844)
MINUS = "\u2212"
MOST_TABS = 200  # a bound for the walk, far above any of these pages' stops


def tab_to(driver: WebDriver, element_id: str) -> WebElement:
    """Walks a page just loaded with Tab, from its start, until ``element_id`` has the
    focus: it is reachable from the keyboard (failing after MOST_TABS stops)."""
    for _ in range(MOST_TABS):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.switch_to.active_element
        if focused.get_attribute("id") == element_id:
            return focused
    pytest.fail(f"#{element_id} not reached in {MOST_TABS} Tab stops")


def typed(driver: WebDriver, *values: str) -> WebElement:
    """Types each value into the focused field and Tabs on: the element focused last."""
    for value in values:
        focused = driver.switch_to.active_element
        focused.send_keys(value)
        focused.send_keys(Keys.TAB)
    return driver.switch_to.active_element


def press(driver: WebDriver, element: WebElement) -> None:
    """Presses Enter on ``element`` (a button, a field of a form) and waits for the
    page it was on to go."""
    element.send_keys(Keys.ENTER)
    browser.gone(driver, element)


def fits(driver: WebDriver, *selectors: str) -> None:
    """Neither the page nor any element of ``selectors`` reaches past the window's
    width: nothing there scrolls sideways."""
    width = driver.execute_script("return window.innerWidth")
    page = driver.execute_script("return document.documentElement.scrollWidth")
    assert page <= width, f"the page is {page} px wide in {width}"
    for selector in selectors:
        for element in driver.find_elements(By.CSS_SELECTOR, selector):
            right = driver.execute_script("return arguments[0].getBoundingClientRect().right",
                                          element)
            assert right <= width, f"{selector} reaches {right} px in {width}"


def test_a_rubric_item_and_a_line_comment_reach_the_student(site: Site,
                                                            driver: WebDriver) -> None:
    link = site.students["Ada"]
    hand_in(driver, link, FLIPPED)
    row = graded_attempt(driver, 1)
    attempt = row.get_attribute("data-attempt")
    driver.get(site.instructor)
    driver.get(f"{site.base}/i/c/1/attempts/{attempt}")
    assert "has no item yet" in words(driver.find_element(By.ID, "marking"))

    # A new item, from the keyboard: it is made and applied at once.
    tab_to(driver, "item-name")
    button = typed(driver, "no docstring", "-1", "Say what each function returns.")
    assert words(button) == "Make the item and apply it"
    press(driver, button)
    result = words(driver.find_element(By.CSS_SELECTOR, "strong.result"))
    assert result == f"4/10 from the tests, {MINUS}1 'no docstring' = 3/10"
    applied = driver.find_element(By.CSS_SELECTOR, "ul.rubric button")
    assert words(applied) == f"Take off {MINUS}1 no docstring"

    # A comment on the line of min_value.
    line = next(number for number, text in
                enumerate(FLIPPED.read_text().splitlines(), 1) if "def min_value" in text)
    tab_to(driver, "comment-line")
    button = typed(driver, str(line), "At a terminal state, whose view is this?")
    assert words(button) == "Save the comment"
    press(driver, button)
    said = driver.find_element(By.CSS_SELECTOR, "ul.line-comments li")
    assert words(said).startswith(f"Line {line} def min_value")
    shot(driver, "marking-1-staff-attempt")

    # The student reads both, on a phone.
    driver.set_window_size(*PHONE)
    driver.get(f"{link}/attempts/{attempt}")
    assert words(driver.find_element(By.CSS_SELECTOR, "strong.result")) == result
    marked = driver.find_element(By.CSS_SELECTOR, "section.marking")
    assert "no docstring: Say what each function returns." in words(marked)
    comment = words(driver.find_element(By.CSS_SELECTOR, "ul.line-comments li"))
    assert re.match(rf"Line {line} def min_value.*: At a terminal state, whose view is "
                    r"this\? \(Instructor, ", comment), comment
    assert driver.find_elements(By.CSS_SELECTOR, "ul.line-comments form") == []
    fits(driver, "section.marking", "ul.line-comments", "ul.line-comments li")
    shot(driver, "marking-2-student-attempt-phone")


def test_late_days_and_a_regrade_seen_first(site: Site, driver: WebDriver) -> None:
    driver.get(site.instructor)
    driver.get(f"{site.base}/i/c/1")
    follow(driver, driver.find_element(By.LINK_TEXT, "Late days"))
    tab_to(driver, "late-days").send_keys(Keys.BACKSPACE * 3)  # its value now: 0
    button = typed(driver, "2")
    assert words(button) == "Save the late days"
    press(driver, button)
    assert words(driver.find_element(By.CSS_SELECTOR, "p.saved")) == \
        "Each student has 2 late day(s)."
    assert re.search(r"Ada \d+ 2", words(driver.find_element(By.TAG_NAME, "table")))
    shot(driver, "marking-3-late-days")
    driver.set_window_size(*PHONE)
    driver.refresh()
    fits(driver, "main")
    driver.get(site.students["Ada"])
    assert "Late days: you have used 0 of 2, 2 left." in \
        words(driver.find_element(By.CSS_SELECTOR, "p.late-days"))
    fits(driver, "p.late-days")

    driver.set_window_size(1280, 1000)
    driver.get(f"{site.base}/i/c/1/exercises/{EXERCISE}")
    tab_to(driver, "force")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    regrade = driver.switch_to.active_element
    assert words(regrade).startswith("Regrade all of")
    press(driver, regrade)
    browser_said = words(driver.find_element(By.TAG_NAME, "main"))
    assert "Its reports are held aside" in browser_said
    assert "Every submission is graded." in browser_said  # this version graded them all
    assert "No counted score would change" in browser_said
    shot(driver, "marking-4-regrade-preview")
    driver.set_window_size(*PHONE)
    fits(driver, "main")
    apply = driver.find_element(By.XPATH, "//button[starts-with(., 'Apply')]")
    press(driver, apply)
    assert words(driver.find_element(By.CSS_SELECTOR, "p.saved")) == \
        "Applied: the new scores count."
    shot(driver, "marking-5-regrade-applied")
