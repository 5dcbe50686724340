"""The service's pages in a real headless Chromium, driven by selenium, against
``minimax-grader serve`` run as a user runs it: a student hands in through the
page's own form and reads the report, the instructor reads the gradebook, and a
hostile name on the roster stays text.

Each step leaves a screenshot in test-artifacts/screenshots/ (kept by CI).
"""

import csv
import functools
import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import browser
import pytest
from conftest import ROOT, skip_loudly
from selenium.common.exceptions import NoAlertPresentException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.service.conftest import FLIPPED, FULL_MARKS, open_served
from tests.service.test_service_serve import free_port

pytestmark = pytest.mark.timeout(300)  # a busy machine grades and runs axe slowly

SHOTS = ROOT / "test-artifacts" / "screenshots"
EXERCISE = "helpers"
TITLE = "The minimax helpers"  # its column's head in the gradebook
SCRIPT = "<script>alert(1)</script>"
ROSTER = [("Ada", "ada@example.edu"), (SCRIPT, "mallory@example.edu")]
GRADED_WITHIN = 60  # seconds; a helpers submission grades in about one
# An alpha-beta search that prunes only past the bound: its report shows a tree.
PRUNES_ON_EQUAL = ROOT / "solutions" / "alphabeta" / "corpus" / "prune_strict_bound" / \
    "alphabeta.py"
SERVER_STARTS_WITHIN = 90  # a loaded machine starts it in 30 s
FULL_MARKS_SUMMARY = "10/10 points: 4 of 4 tests passed."
HINT = "Hint: Your terminal values are the wrong way round."
FAILED_TEST = "min_value on all 155 reachable positions: FAILED"
# The serve command's line for each new student: "name <email>: link".
STUDENT_LINE = re.compile(r"^(?P<name>.*) <(?P<email>[^<>]+)>: (?P<link>http://\S+/s/\S+)$")


@dataclass
class Site:
    base: str
    instructor: str  # the instructor's link
    students: dict[str, str]  # name -> personal link
    folder: Path  # its data and what it printed


def _said(folder: Path) -> str:
    return "\n".join(f"--- {name}\n" + (folder / name).read_text(errors="replace")[-3000:]
                     for name in ("stdout.txt", "stderr.txt"))


def _started(server: subprocess.Popen, base: str, folder: Path) -> bool:
    """Polls the server's log until uvicorn says it listens on ``base`` (its own word: an
    answer on the port could come from another process that took it); False when the
    port was taken first."""
    deadline = time.monotonic() + SERVER_STARTS_WITHIN
    while True:
        said = (folder / "stderr.txt").read_text(errors="replace")
        if f"Uvicorn running on {base}" in said:
            return True
        if server.poll() is not None:
            if "address already in use" in said:
                return False
            pytest.fail(f"serve exited with {server.returncode}:\n{_said(folder)}")
        if time.monotonic() > deadline:
            pytest.fail(f"serve did not listen in {SERVER_STARTS_WITHIN} s:\n{_said(folder)}")
        time.sleep(0.1)  # the polling interval, not a wait for anything in particular


def _stop(server: subprocess.Popen) -> None:
    """Ctrl-C, as a user stops it (the pool finishes its jobs); killed if it hangs."""
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def tools() -> tuple[str, str]:
    """Chromium's and chromedriver's paths, looked for before a server is started for them."""
    chromium, chromedriver = browser.chromium(), shutil.which("chromedriver")
    if chromium is None or chromedriver is None:
        skip_loudly("the web service in a browser", "no Chromium or no chromedriver on PATH "
                    "(Debian: apt-get install chromium chromium-driver)")
    return chromium, chromedriver


@pytest.fixture(scope="module")
def site(tools: tuple[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """``minimax-grader serve`` on a free loopback port, with ROSTER imported."""
    folder = tmp_path_factory.mktemp("serve")
    roster = folder / "roster.csv"
    with roster.open("w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([("name", "email"), *ROSTER])
    for _ in range(3):  # a free port can be taken before the server binds it
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        command = [str(Path(sys.executable).parent / "minimax-grader"), "serve",
                   "--port", str(port), "--data", str(folder / "data"), "--sandbox", "local",
                   "--roster", str(roster)]
        # Files, not pipes: a pipe nobody reads would fill up with the log and stall it.
        with open(folder / "stdout.txt", "w") as out, open(folder / "stderr.txt", "w") as err:
            server = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out,
                                      stderr=err)
        try:
            if _started(server, base, folder):
                break
        except BaseException:
            _stop(server)
            raise
        # The links of the run that could not bind were printed with its port: start again.
        shutil.rmtree(folder / "data")
    else:
        pytest.fail(f"serve found no free port in 3 tries:\n{_said(folder)}")
    try:
        printed = (folder / "stdout.txt").read_text()
        students = {found["name"]: found["link"]
                    for found in map(STUDENT_LINE.match, printed.splitlines()) if found}
        instructor = re.search(rf"({re.escape(base)}/i/\S+)$", printed, re.MULTILINE)
        assert instructor and students.keys() == {name for name, _ in ROSTER}, _said(folder)
        open_served(base, instructor[1].rsplit("/", 1)[1])  # a new exercise is hidden
        yield Site(base, instructor[1], students, folder)
    finally:
        _stop(server)


@pytest.fixture(autouse=True)
def server_log_on_failure(site: Site, request: pytest.FixtureRequest) -> Iterator[None]:
    """After a failed test, what the server said: the service's fault or the page's."""
    failed = request.session.testsfailed
    yield
    if request.session.testsfailed > failed:
        print(_said(site.folder))


@pytest.fixture
def driver(tools: tuple[str, str], request: pytest.FixtureRequest,
           tmp_path: Path) -> Iterator[WebDriver]:
    """A fresh headless Chromium with a profile of its own, always quit afterwards; a
    failed test leaves a screenshot of the page it stopped on."""
    failed = request.session.testsfailed
    with browser.driven(*tools, tmp_path) as chrome:
        yield chrome
        if request.session.testsfailed > failed:
            SHOTS.mkdir(parents=True, exist_ok=True)
            chrome.save_screenshot(str(SHOTS / f"failed-{request.node.name}.png"))
            print(f"the page at {chrome.current_url}:\n{chrome.page_source[-5000:]}")


def shot(driver: WebDriver, step: str) -> None:
    """A screenshot of the page, which axe-core then checks (no WCAG A/AA violation)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SHOTS / f"{step}.png")), step
    browser.accessible(driver)


def words(element: WebElement) -> str:
    """An element's text with its runs of white space made one space."""
    return " ".join(element.text.split())


def attempts(driver: WebDriver) -> list[WebElement]:
    """The attempt rows shown on the page, newest first."""
    return driver.find_elements(By.CSS_SELECTOR, "tr[data-attempt]")


def follow(driver: WebDriver, element: WebElement) -> None:
    """Clicks a link or button and waits until the page it was on is gone."""
    element.click()
    browser.gone(driver, element)


def hand_in(driver: WebDriver, link: str, path: Path, exercise: str = EXERCISE) -> None:
    """Hands ``path`` in for ``exercise`` through the student page's own form."""
    driver.get(link)
    section = driver.find_element(By.ID, exercise)
    section.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(path))
    follow(driver, section.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    assert driver.current_url == f"{link}?handed={exercise}#{exercise}", \
        driver.find_element(By.TAG_NAME, "main").text
    # The page reloads itself once the grading is done: the line is read in one
    # script, so that no reload falls between finding it and reading it.
    saved = WebDriverWait(driver, 30, ignored_exceptions=[WebDriverException]).until(
        lambda page: " ".join(page.execute_script(
            "const line = document.querySelector('p.saved');"
            "return line ? line.textContent : '';").split()))
    assert saved.startswith("Handed in: attempt #"), saved


def graded_attempt(driver: WebDriver, count: int, exercise: str = EXERCISE,
                   within: float = GRADED_WITHIN) -> WebElement:
    """Waits, never reloading, until the student's page (its script polls and reloads
    it) shows ``count`` attempts of ``exercise`` and the newest is no longer waiting
    (for ``within`` seconds at most); that row."""

    def settled(page: WebDriver) -> WebElement | None:
        rows = page.find_element(By.ID, exercise).find_elements(By.CSS_SELECTOR,
                                                                "tr[data-attempt]")
        if len(rows) == count and rows[0].get_attribute("class") != "waiting":
            return rows[0]
        return None

    # The page may reload itself while it is read: a row gone stale (or, as Chrome
    # may say it, a node no longer in the document) is looked at again.
    row = WebDriverWait(driver, within, poll_frequency=0.5,
                        ignored_exceptions=[WebDriverException]).until(
        settled, f"attempt {count} of {exercise} not graded in {within:g} s")
    assert row.get_attribute("class") == "graded", words(row)
    return row


def scripts(driver: WebDriver) -> list[str | None]:
    """The page's script elements' sources (None for an inline one)."""
    return [script.get_attribute("src")
            for script in driver.find_elements(By.TAG_NAME, "script")]


def no_alert(driver: WebDriver) -> None:
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert  # noqa: B018 (the property raises when no alert is open)


def test_a_student_hands_in_and_the_instructor_sees_it(site: Site, driver: WebDriver) -> None:
    link = site.students["Ada"]
    driver.get(link)
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Ada"
    assert attempts(driver) == []
    # From the keyboard: the first Tab stop skips to the content.
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    skip = driver.switch_to.active_element
    assert words(skip) == "Skip to the content"
    skip.send_keys(Keys.ENTER)
    assert driver.current_url == f"{link}#main"
    shot(driver, "1-student-page")

    hand_in(driver, link, FULL_MARKS)
    row = graded_attempt(driver, 1)
    assert words(row).endswith(" 10/10")
    counted = driver.find_element(By.CSS_SELECTOR, f"#{EXERCISE} strong.counted")
    assert words(counted) == "10/10"
    shot(driver, "2-student-full-marks-graded")

    follow(driver, row.find_element(By.TAG_NAME, "a"))
    assert words(driver.find_element(By.TAG_NAME, "h1")) == f"Attempt #1 at {EXERCISE}"
    assert words(driver.find_element(By.TAG_NAME, "strong")) == "10/10"
    assert FULL_MARKS_SUMMARY in words(driver.find_element(By.CSS_SELECTOR, "p.verdict"))
    tests = driver.find_element(By.CSS_SELECTOR, "table.tests")
    assert len(tests.find_elements(By.CSS_SELECTOR, "tbody tr.passed")) == 4
    code = driver.find_element(By.CSS_SELECTOR, "section.files")
    assert "def " in words(code.find_element(By.CSS_SELECTOR, "div.code"))
    assert code.find_element(By.PARTIAL_LINK_TEXT, "Download").get_attribute(
        "href").endswith("/files.zip")
    shot(driver, "3-student-full-marks-report")

    hand_in(driver, link, FLIPPED)
    row = graded_attempt(driver, 2)
    assert words(row).endswith(" 4/10")
    # The best attempt counts (the default rule), not the last one.
    assert words(driver.find_element(By.CSS_SELECTOR, f"#{EXERCISE} strong.counted")) == "10/10"
    shot(driver, "4-student-flipped-graded")

    follow(driver, row.find_element(By.TAG_NAME, "a"))
    assert words(driver.find_element(By.TAG_NAME, "h1")) == f"Attempt #2 at {EXERCISE}"
    failed = driver.find_elements(By.CSS_SELECTOR, "section.test h3")
    assert FAILED_TEST in [words(heading) for heading in failed]
    assert any(HINT in words(hint) for hint in driver.find_elements(By.CSS_SELECTOR, "p.hint"))
    # The failed test reads as text: its values named, no preformatted drawing.
    section = next(s for s in driver.find_elements(By.CSS_SELECTOR, "section.test")
                   if words(s.find_element(By.TAG_NAME, "h3")) == FAILED_TEST)
    named = [words(term) for term in section.find_elements(By.CSS_SELECTOR, "dl.values dt")]
    assert named[-2:] == ["expected", "got"], words(section)
    assert section.find_elements(By.TAG_NAME, "pre") == []
    # Its position is a table: the game's labels as headers, each cell in words too.
    board = section.find_element(By.CSS_SELECTOR, "table.board")
    assert words(board.find_element(By.TAG_NAME, "caption")).startswith("The position: ")
    assert [words(th) for th in board.find_elements(By.CSS_SELECTOR, "thead th")] == \
        ["x=0", "x=1", "x=2"]
    said = driver.find_element(By.ID, board.get_attribute("aria-describedby"))
    assert said.get_attribute("textContent").startswith("Board 3 x 2, player ")
    shot(driver, "5-student-flipped-report")

    driver.get(site.instructor)
    # The secret leaves the address bar for a cookie at once: the person's courses.
    assert driver.current_url == f"{site.base}/i"
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Your courses"
    shot(driver, "6-instructor-courses")
    follow(driver, driver.find_element(By.LINK_TEXT, "Course"))
    assert driver.current_url == f"{site.base}/i/c/1"
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Gradebook of Course"
    table = driver.find_element(By.CSS_SELECTOR, "table.gradebook")
    columns = [words(cell) for cell in table.find_elements(By.CSS_SELECTOR, "thead th")]
    name = table.find_element(By.LINK_TEXT, "Ada")
    cells = name.find_element(By.XPATH, "./ancestor::tr").find_elements(By.CSS_SELECTOR,
                                                                        "th, td")
    scores = dict(zip(columns, map(words, cells), strict=True))
    assert scores["email or login"] == "ada@example.edu"
    assert scores[TITLE] == "10"  # the best of 10 and 4
    assert {scores[column] for column in columns[3:] if column != TITLE} == {"-"}
    shot(driver, "6-instructor-gradebook")

    # One exercise's column, sorted by it, and its histogram: chosen from the keyboard.
    Select(driver.find_element(By.ID, "view-exercise")).select_by_value(EXERCISE)
    Select(driver.find_element(By.ID, "view-sort")).select_by_value("name")
    show = driver.find_element(By.XPATH, "//form[@class='filter']//button")
    show.send_keys(Keys.ENTER)
    browser.gone(driver, show)
    assert driver.current_url.startswith(f"{site.base}/i/c/1?")
    assert f"exercise={EXERCISE}" in driver.current_url
    picture = driver.find_element(By.CSS_SELECTOR, "figure.histogram svg[role=img]")
    said = driver.find_element(By.ID, f"hist-{EXERCISE}-desc").get_attribute("textContent")
    assert said.startswith("1 score(s), mean 10, median 10") and "9 to 10: 1." in said
    assert picture.find_elements(By.TAG_NAME, "rect")
    shot(driver, "6b-instructor-gradebook-histogram")

    follow(driver, driver.find_element(By.LINK_TEXT, "Missing and late work"))
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Missing and late work"
    shot(driver, "6c-instructor-missing-and-late")
    driver.get(f"{site.base}/i/c/1")
    name = driver.find_element(By.CSS_SELECTOR, "table.gradebook").find_element(By.LINK_TEXT,
                                                                                "Ada")

    follow(driver, name)
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Ada ada@example.edu"
    heading = words(driver.find_element(By.ID, f"title-{EXERCISE}"))
    assert heading.endswith(f"({EXERCISE}): 10/10"), heading
    assert [words(row).split()[-1] for row in attempts(driver)] == ["4/10", "10/10"]
    shot(driver, "7-instructor-student-attempts")

    # The instructor sets a manual score, with its comment, over the grader's 4/10.
    follow(driver, attempts(driver)[0].find_element(By.TAG_NAME, "a"))
    Select(driver.find_element(By.ID, "note-kind")).select_by_value("score")
    driver.find_element(By.ID, "note-score").send_keys("7")
    driver.find_element(By.ID, "note-text").send_keys("Partial credit: the idea is right.")
    follow(driver, driver.find_element(By.ID, "note-text").find_element(
        By.XPATH, "./ancestor::form//button"))
    assert "Saved" in words(driver.find_element(By.CSS_SELECTOR, "p.saved"))
    result = words(driver.find_element(By.CSS_SELECTOR, "strong.result"))
    assert result.startswith("7/10, set by Instructor"), result
    shot(driver, "7b-instructor-manual-score")


def test_a_hostile_name_shows_as_text(site: Site, driver: WebDriver) -> None:
    # The pages' CSP would block an inline script anyway: what shows that the name
    # was escaped is that it is text on the page and no script element in the DOM.
    driver.get(site.students[SCRIPT])
    no_alert(driver)
    assert words(driver.find_element(By.TAG_NAME, "h1")) == SCRIPT
    assert driver.title.startswith(SCRIPT)
    assert scripts(driver) == [f"{site.base}/poll.js"]  # the page's own, from a file
    shot(driver, "8-escaping-student-page")

    driver.get(site.instructor)
    driver.get(f"{site.base}/i/c/1")
    no_alert(driver)
    name = driver.find_element(By.CSS_SELECTOR, "table.gradebook").find_element(By.LINK_TEXT,
                                                                                SCRIPT)
    assert scripts(driver) == [f"{site.base}/poll.js"]  # its live updates, from a file
    shot(driver, "9-escaping-gradebook")

    follow(driver, name)
    no_alert(driver)
    assert words(driver.find_element(By.TAG_NAME, "h1")) == f"{SCRIPT} mallory@example.edu"
    assert scripts(driver) == []
    shot(driver, "10-escaping-instructor-student-page")



@pytest.mark.timeout(400)  # an alpha-beta hand-in grades in half a minute, and more when busy
def test_a_report_draws_its_position_and_its_smallest_tree(site: Site,
                                                           driver: WebDriver) -> None:
    link = site.students["Ada"]
    hand_in(driver, link, PRUNES_ON_EQUAL, "alphabeta")
    row = graded_attempt(driver, 1, "alphabeta", within=300)
    follow(driver, row.find_element(By.TAG_NAME, "a"))
    section = next(s for s in driver.find_elements(By.CSS_SELECTOR, "section.test")
                   if s.find_elements(By.CSS_SELECTOR, "figure.picture"))
    # The position: a picture, described by the board in words, above its table.
    board = section.find_element(By.CSS_SELECTOR, "svg.picture[aria-describedby^=board]")
    said = driver.find_element(By.ID, board.get_attribute("aria-describedby"))
    assert said.get_attribute("textContent").startswith("Board 3 x 2, ")
    assert board.find_elements(By.CSS_SELECTOR, "rect.closed")  # the blocked cell, hatched
    # The tree: a figure whose picture the text drawing describes, each node marked.
    figure = section.find_element(By.CSS_SELECTOR, "figure.picture")
    tree = figure.find_element(By.TAG_NAME, "svg")
    drawing = driver.find_element(By.ID, tree.get_attribute("aria-describedby"))
    assert "terminal_test: reference" in drawing.text
    title = tree.find_element(By.TAG_NAME, "title").get_attribute("textContent")
    assert title.startswith("The game tree: ")
    assert len(tree.find_elements(By.CSS_SELECTOR, "g.node")) == \
        len(re.findall(r"\bn\d+ (?:max|min) to move", drawing.text))
    # the strict bound searches on past where the reference prunes
    assert tree.find_elements(By.CSS_SELECTOR, "g.node.pruned.student")
    assert "The smallest game tree found, drawn" in words(
        figure.find_element(By.TAG_NAME, "figcaption"))
    shot(driver, "5b-student-report-with-pictures")


def test_the_instructor_runs_the_term(site: Site, driver: WebDriver,
                                      tmp_path: Path) -> None:
    roster = tmp_path / "canvas.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section\n"
                      "    Points Possible,,,,\n\"Cy, Young\",4711,A-1,cy,Mon\n")
    driver.get(site.instructor)
    driver.get(f"{site.base}/i/c/1")
    driver.find_element(By.ID, "roster-file").send_keys(str(roster))
    follow(driver, driver.find_element(By.ID, "roster-file").find_element(
        By.XPATH, "./ancestor::form//button"))
    assert words(driver.find_element(By.CSS_SELECTOR, "p.saved")) == \
        "1 new student(s), 0 already there."
    first = words(driver.find_element(By.CSS_SELECTOR, "code.link"))
    shot(driver, "11-roster-imported-links")

    # The student hands in and asks for a regrade, from the keyboard.
    hand_in(driver, first, FULL_MARKS)
    row = graded_attempt(driver, 1)
    follow(driver, row.find_element(By.TAG_NAME, "a"))
    driver.find_element(By.ID, "request-text").send_keys("Please look at my max_value.")
    button = driver.find_element(By.ID, "request-text").find_element(
        By.XPATH, "./ancestor::form//button")
    button.send_keys(Keys.ENTER)
    browser.gone(driver, button)
    assert "sent to your instructor" in words(driver.find_element(By.CSS_SELECTOR, "p.saved"))
    shot(driver, "12-student-regrade-request")

    driver.get(f"{site.base}/i/c/1")
    requests = words(driver.find_element(By.CSS_SELECTOR, "ul.requests"))
    assert requests.startswith("open: Cy, Young") and "my max_value" in requests
    follow(driver, driver.find_element(By.LINK_TEXT, "Cy, Young"))
    # The date and time pickers' values, as a person picks them (their typing is the locale's).
    day = driver.find_element(By.ID, f"ext-deadline-{EXERCISE}-date")
    day.find_element(By.XPATH, "./ancestor::details/summary").click()  # folded: one click
    driver.execute_script("arguments[0].value = '2026-12-24'", day)
    driver.execute_script("arguments[0].value = '12:00'",
                          driver.find_element(By.ID, f"ext-deadline-{EXERCISE}-time"))
    follow(driver, day.find_element(By.XPATH, "./ancestor::form//button"))
    assert words(driver.find_element(By.CSS_SELECTOR, "p.saved")) == \
        f"Extension of {EXERCISE} saved."
    shot(driver, "13-instructor-extension")

    follow(driver, driver.find_element(By.XPATH, "//button[starts-with(., 'Issue a new link')]"))
    second = words(driver.find_element(By.CSS_SELECTOR, "code.link"))
    assert second != first
    shot(driver, "14-instructor-new-link")
    driver.get(first)
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Not found"
    shot(driver, "14b-old-link-not-found")
    driver.get(second)
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Cy, Young"

    # Ada's latest hand-in is the same as Cy's: the pair is listed, and shown side by side.
    hand_in(driver, site.students["Ada"], FULL_MARKS)
    driver.get(f"{site.base}/i/c/1/exercises/{EXERCISE}")  # its settings, on a page of its own
    assert words(driver.find_element(By.TAG_NAME, "h1")) == f"{TITLE} ({EXERCISE})"
    assert driver.find_element(By.ID, "deadline-date").get_attribute("type") == "date"
    assert driver.find_element(By.ID, "visible").is_selected()
    shot(driver, "14c-instructor-exercise-page")
    follow(driver, driver.find_element(By.LINK_TEXT, "Similar hand-ins"))
    shot(driver, "15-instructor-similarity")
    follow(driver, driver.find_element(By.PARTIAL_LINK_TEXT, "compare Ada and Cy, Young"))
    marked = driver.find_elements(By.CSS_SELECTOR, "mark.shared")
    assert marked and "def" in " ".join(words(mark) for mark in marked)
    shot(driver, "16-instructor-similar-pair")
    driver.find_element(By.ID, "note").send_keys("Asked both: Cy had shared the file.")
    follow(driver, driver.find_element(By.XPATH, "//button[. = 'Mark reviewed']"))
    assert words(driver.find_element(By.CSS_SELECTOR, "p[role=status]")).startswith("Saved")
    assert "Reviewed by" in driver.find_element(By.TAG_NAME, "main").text
    shot(driver, "16b-instructor-similar-pair-reviewed")

    # A TA is added from the keyboard, and the audit log says who did what.
    driver.get(f"{site.base}/i/c/1")
    follow(driver, driver.find_element(By.LINK_TEXT, "Staff"))
    driver.find_element(By.ID, "staff-name").send_keys("Tess")
    Select(driver.find_element(By.ID, "staff-role")).select_by_visible_text("TA")
    shot(driver, "17-instructor-staff")
    follow(driver, driver.find_element(By.ID, "staff-name").find_element(
        By.XPATH, "./ancestor::form//button"))
    assert words(driver.find_element(By.TAG_NAME, "h1")) == "Tess's login link"
    shot(driver, "18-instructor-staff-link")
    driver.get(f"{site.base}/i/c/1/audit")
    rows = [words(row) for row in driver.find_elements(By.CSS_SELECTOR, "table.audit tbody tr")]
    assert rows[0].endswith("Instructor staff added Tess (#2) TA"), rows[0]
    assert any("Instructor extension set Cy, Young" in row for row in rows)
    shot(driver, "19-instructor-audit-log")


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass  # the test's output is the assertions', not the server's


WAITING_PAGE = """<!doctype html><html lang="en"><head><title>waiting</title>
<script src="poll.js" defer></script></head><body><main>
<div id="live" data-status="status.json" data-pending="yes" role="status">Grading</div>
<label for="note">A note</label><textarea id="note"></textarea></main></body></html>"""


def test_a_report_ready_while_someone_types_is_offered_not_forced(driver: WebDriver,
                                                                   tmp_path: Path) -> None:
    """The student's page's script (poll.js, served from a folder whose status the test
    sets) does not reload the page under someone typing: it says the report is ready,
    with a button that shows it."""
    shutil.copy(ROOT / "grader" / "service" / "templates" / "poll.js", tmp_path)
    (tmp_path / "index.html").write_text(WAITING_PAGE)
    status = tmp_path / "status.json"
    status.write_text(json.dumps({"pending": True, "attempts": {"1": "waiting"}}))
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        note = driver.find_element(By.ID, "note")
        note.send_keys("half a sentence")
        status.write_text(json.dumps({"pending": False, "attempts": {"1": "graded"}}))
        show = WebDriverWait(driver, 30).until(expected_conditions.element_to_be_clickable(
            (By.ID, "show-report")))
        assert words(driver.find_element(By.ID, "live")).startswith("Your report is ready.")
        assert note.get_attribute("value") == "half a sentence"  # the page stayed
        status.write_text(json.dumps({"pending": True, "attempts": {"1": "graded"}}))
        show.send_keys(Keys.ENTER)
        browser.gone(driver, show)
    finally:
        server.shutdown()
        server.server_close()
