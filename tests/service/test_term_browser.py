"""A term's first days in a real headless Chromium, against ``minimax-grader serve``
on a fresh data folder: the first course is closed until its instructor opens an
exercise; a student's pages read on a phone (390 x 844) without scrolling
sideways, the late penalty stated, the regrade request below the report and gone
while one waits; the staff's views show what is open, hidden exercises one click
away, a student's attempts a few Tab stops from their page, the student named on
their attempt's page, and published solutions uploaded on the similarity page.
Each page is checked by axe-core (WCAG 2.1 A and AA)."""

import csv
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.service.conftest import FLIPPED, NOT_FOLLOWED
from tests.service.test_service_browser import (  # noqa: F401 (fixtures)
    PRUNES_ON_EQUAL,
    _started,
    _stop,
    driver,
    follow,
    graded_attempt,
    hand_in,
    shot,
    tools,
    words,
)
from tests.service.test_service_serve import free_port

pytestmark = pytest.mark.timeout(400)

PHONE = (390, 844)
DESKTOP = (1280, 900)
ROSTER = [("Ada", "ada@example.edu"), ("Bob", "bob@example.edu")]
# Opened by the instructor: helpers late since 2020 with a 50% penalty and no hard
# deadline; alphabeta with no deadline. Every other exercise stays hidden.
OPENED = {"helpers": {"deadline_date": "2020-01-01", "deadline_time": "00:00",
                      "late_penalty": "50"},
          "alphabeta": {}}
TAB_STOPS = 30  # a student's attempts from the top of their staff page, at most


@dataclass
class Term:
    base: str
    secret: str
    students: dict[str, str]  # name -> link


def staff_form(term: Term, path: str, fields: dict[str, str]) -> None:
    """POST a course form as the instructor (the exercise page's CSRF token): a 303."""
    headers = {"x-instructor-secret": term.secret}
    with urllib.request.urlopen(urllib.request.Request(
            f"{term.base}/i/c/1/exercises/helpers", headers=headers)) as page:
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.read().decode())
    assert csrf
    try:
        NOT_FOLLOWED.open(urllib.request.Request(
            f"{term.base}{path}", data=urlencode({"csrf": csrf[1], **fields}).encode(),
            headers=headers))
    except urllib.error.HTTPError as answer:
        assert answer.code == 303, (path, answer.code)


@pytest.fixture(scope="module")
def term(tools, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Term]:  # noqa: F811
    folder = tmp_path_factory.mktemp("term")
    with (folder / "roster.csv").open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([("name", "email"), *ROSTER])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(folder / "stdout.txt", "w") as out, open(folder / "stderr.txt", "w") as err:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "minimax-grader"), "serve", "--port", str(port),
             "--data", str(folder / "data"), "--sandbox", "local",
             "--roster", str(folder / "roster.csv")],
            stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    try:
        assert _started(server, base, folder), "the port was taken"
        printed = (folder / "stdout.txt").read_text()
        secret = re.search(r"/i/([\w-]+)$", printed, re.M)
        assert secret, printed
        students = dict(re.findall(r"^(\w+) <[^>]+>: (\S+)$", printed, re.M))
        yield Term(base, secret[1], students)
    finally:
        _stop(server)


def sideways(driver: WebDriver) -> int:  # noqa: F811
    """How far the page scrolls sideways, in CSS pixels (0: not at all)."""
    return driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def phone_page(driver: WebDriver, step: str) -> None:  # noqa: F811
    assert sideways(driver) == 0, f"{step}: scrolls sideways on a phone"
    shot(driver, f"term-{step}")


def sections(driver: WebDriver) -> list[str]:  # noqa: F811
    return [one.get_attribute("id") for one in
            driver.find_elements(By.CSS_SELECTOR, "main section[id]")]


def test_a_fresh_course_opens_what_is_opened_reads_on_a_phone_and_shows_the_staff_it(
        term: Term, driver: WebDriver) -> None:  # noqa: F811
    driver.set_window_size(*PHONE)
    ada = term.students["Ada"]
    driver.get(ada)
    assert sections(driver) == []  # the first course of a fresh install: closed
    assert "No exercise is open yet." in words(driver.find_element(By.TAG_NAME, "main"))
    phone_page(driver, "1-closed")

    for exercise, fields in OPENED.items():
        staff_form(term, f"/i/c/1/settings/{exercise}", {"visible": "1", "late_penalty": "0",
                                                         **fields})
    driver.get(ada)
    assert sorted(sections(driver)) == sorted(OPENED)  # what is open, and only that
    helpers = words(driver.find_element(By.ID, "helpers").find_element(By.TAG_NAME, "p"))
    # A penalty with no hard deadline is stated too.
    assert "late work is taken with a 50% penalty" in helpers, helpers
    assert "late work" not in words(driver.find_element(By.ID, "alphabeta"))
    phone_page(driver, "2-student-page")

    hand_in(driver, ada, FLIPPED)
    row = graded_attempt(driver, 1)
    assert "late: counts 2 after the 50% penalty" in words(row), words(row)
    phone_page(driver, "3-student-graded")
    follow(driver, row.find_element(By.TAG_NAME, "a"))
    phone_page(driver, "4-report")
    # The request box comes after the report and the files it is about.
    order = driver.execute_script(
        "const ask = document.querySelector('form.ask');"
        "const report = document.querySelector('section.report');"
        "return ask && report && Boolean(report.compareDocumentPosition(ask) & 4);")
    assert order, "the regrade request is not below the report"
    box = driver.find_element(By.ID, "request-text")
    assert box.rect["x"] + box.rect["width"] <= PHONE[0]
    box.send_keys("The hint says my utilities are flipped, but I followed the lesson.")
    follow(driver, driver.find_element(By.CSS_SELECTOR, "form.ask button"))
    assert "regrade request was sent" in words(driver.find_element(By.CSS_SELECTOR, "p.saved"))
    assert driver.find_elements(By.ID, "request-text") == []  # none other while it waits
    assert "waits for your instructor's answer" in words(
        driver.find_element(By.CSS_SELECTOR, "p.ask"))
    phone_page(driver, "5-regrade-asked")

    hand_in(driver, ada, PRUNES_ON_EQUAL, "alphabeta")  # a report drawing search trees
    row = graded_attempt(driver, 1, "alphabeta")
    follow(driver, row.find_element(By.TAG_NAME, "a"))
    assert driver.find_elements(By.CSS_SELECTOR, "svg.picture")
    phone_page(driver, "6-report-with-trees")
    staff_see_what_is_open_and_reach_a_students_attempts(term, driver)


def staff_see_what_is_open_and_reach_a_students_attempts(
        term: Term, driver: WebDriver) -> None:  # noqa: F811
    """The staff's side of the same term: it needs the student's attempts, so it
    runs in the same test (xdist may send two tests of one module to two
    workers, each with a term of its own)."""
    driver.set_window_size(*DESKTOP)
    driver.get(f"{term.base}/i/{term.secret}")
    driver.get(f"{term.base}/i/c/1")
    heads = driver.find_elements(By.CSS_SELECTOR, "main > div.scroll > table.gradebook thead th")
    titles = [words(head) for head in heads]
    assert titles[:3] == ["student", "email or login", "section"]
    assert len(titles) == 3 + len(OPENED), titles  # the open exercises' columns alone
    # No head is broken inside a word: each word of it lies on one line.
    broken = driver.execute_script("""
        const broken = [];
        for (const head of arguments[0]) {
          const text = head.querySelector('a') || head;
          const node = text.firstChild;
          let at = 0;
          for (const word of node.textContent.split(' ')) {
            const range = document.createRange();
            range.setStart(node, at); range.setEnd(node, at + word.length);
            const lines = new Set([...range.getClientRects()].map(rect => rect.top));
            if (lines.size > 1) broken.push(word);
            at += word.length + 1;
          }
        }
        return broken;""", heads)
    assert broken == [], broken
    folded = driver.find_element(By.CSS_SELECTOR, "details.hidden-columns")
    assert folded.get_attribute("open") is None
    hidden_table = folded.find_element(By.CSS_SELECTOR, "table.gradebook")
    assert not hidden_table.is_displayed()
    shot(driver, "term-7-gradebook")
    folded.find_element(By.TAG_NAME, "summary").click()  # one click away
    assert hidden_table.is_displayed()
    assert "Nim" in words(hidden_table.find_element(By.TAG_NAME, "thead"))
    shot(driver, "term-8-gradebook-hidden-shown")

    follow(driver, driver.find_element(By.LINK_TEXT, "Ada"))
    page = driver.current_url
    shown = [section.get_attribute("aria-labelledby") for section in driver.find_elements(
        By.CSS_SELECTOR, "main > section")]
    assert sorted(shown) == sorted(f"title-{one}" for one in OPENED)
    assert driver.find_element(By.CSS_SELECTOR, "details.hidden-exercises").get_attribute(
        "open") is None
    shot(driver, "term-9-student-staff-page")
    # From the top of the page, the keyboard reaches the student's attempts.
    driver.find_element(By.TAG_NAME, "body").click()
    for _ in range(TAB_STOPS):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        focused = driver.switch_to.active_element
        if "/attempts/" in (focused.get_attribute("href") or ""):
            break
    else:
        pytest.fail(f"no attempt within {TAB_STOPS} Tab stops of {page}")
    focused.send_keys(Keys.ENTER)
    driver.find_element(By.TAG_NAME, "h1")
    heading = words(driver.find_element(By.TAG_NAME, "h1"))
    assert heading.startswith("Ada's attempt #1 at "), heading
    assert "By Ada (ada@example.edu)" in words(driver.find_element(By.TAG_NAME, "main"))
    assert driver.find_element(By.LINK_TEXT, "Ada").get_attribute("href").endswith(
        page.removeprefix(term.base))
    shot(driver, "term-10-staff-attempt")


def test_published_solutions_are_uploaded_on_the_similarity_page(
        term: Term, driver: WebDriver, tmp_path: Path) -> None:  # noqa: F811
    driver.set_window_size(*DESKTOP)
    driver.get(f"{term.base}/i/{term.secret}")
    driver.get(f"{term.base}/i/c/1/similarity/helpers")
    assert driver.find_elements(By.CSS_SELECTOR, "ul.published code") == []
    solution = tmp_path / "minimax_helpers.py"
    solution.write_bytes(FLIPPED.read_bytes())
    driver.find_element(By.ID, "published-files").send_keys(str(solution))
    follow(driver, driver.find_element(By.XPATH, "//form[contains(@action, '/published')]"
                                                 "//button"))
    assert "Published" in words(driver.find_element(By.CSS_SELECTOR, "p.saved"))
    listed = [words(one) for one in driver.find_elements(By.CSS_SELECTOR,
                                                          "ul.published code")]
    assert listed == ["minimax_helpers.py"]
    shot(driver, "term-11-published")
    audit = urllib.request.urlopen(urllib.request.Request(
        f"{term.base}/i/c/1/audit", headers={"x-instructor-secret": term.secret})).read()
    assert b"published solutions added" in audit
    follow(driver, driver.find_element(By.XPATH, "//ul[@class='published']//button"))
    assert driver.find_elements(By.CSS_SELECTOR, "ul.published code") == []
