"""The league's pages in a real headless Chromium, driven by selenium, against the
service served by uvicorn: students hand in agents through their page's form,
the instructor plays the league through its form, reads the leaderboard, a
student's games and a game's replay, and opens the league to the students, one
of whom reads it. axe-core finds no WCAG 2.1 A or AA violation on any of them.

Each step leaves a screenshot in test-artifacts/screenshots/ (kept by CI).
"""

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import browser
import pytest
from conftest import ROOT, skip_loudly
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from grader.match import handin
from grader.sandbox import local
from grader.service import app
from grader.service.core import Service
from grader.service.options import Options
from tests.service.conftest import open_all
from tests.service.lms_simulator import Loopback

pytestmark = pytest.mark.timeout(300)

SHOTS = ROOT / "test-artifacts" / "screenshots"
AGENTS = ROOT / "tests" / "agents"
ROSTER = [("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"), ("Cy", "cy@example.edu")]
PLAYED_WITHIN = 240  # seconds; the league's six games take a few on an idle machine


@pytest.fixture(scope="module")
def tools() -> tuple[str, str]:
    chromium, driver = browser.chromium(), shutil.which("chromedriver")
    if chromium is None or driver is None:
        skip_loudly("the league's pages in a browser", "no Chromium or chromedriver here")
    if not local.is_boundary():
        skip_loudly("agents in bubblewrap", "bwrap is not usable here")
    return chromium, driver


@pytest.fixture
def served(tools: tuple[str, str], tmp_path: Path) -> Iterator[tuple[str, str, list[str]]]:
    """The service on a loopback port (no grading pool: the hand-ins wait, the league
    plays): its base address, the instructor's link, the students' links."""
    service = Service(Options(data=tmp_path / "data", sandbox="local"))
    secret = service.access.first_instructor_secret()
    open_all(service)
    tokens = [token for _, token in service.students.import_roster(1, ROSTER)]
    server = Loopback(app.build(service))
    try:
        yield server.base, f"{server.base}/i/{secret}", [f"{server.base}/s/{t}" for t in tokens]
    finally:
        server.stop()


@pytest.fixture
def driver(tools: tuple[str, str], tmp_path: Path) -> Iterator[WebDriver]:
    with browser.driven(*tools, tmp_path) as chrome:
        yield chrome


def shot(driver: WebDriver, step: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(SHOTS / f"league-{step}.png")), step
    browser.accessible(driver)


def words(driver: WebDriver, css: str) -> str:
    return " ".join(driver.find_element(By.CSS_SELECTOR, css).text.split())


def follow(driver: WebDriver, css: str) -> None:
    """Clicks the element and waits for the next page."""
    element = driver.find_element(By.CSS_SELECTOR, css)
    element.click()
    browser.gone(driver, element)


def test_the_league_in_a_browser(served, driver: WebDriver, tmp_path: Path) -> None:
    base, instructor, students = served
    exercise = handin.exercise().id
    for link, name in zip(students, ("weak", "crash", "illegal"), strict=True):
        (tmp_path / name).mkdir()
        handed = shutil.copy(AGENTS / f"{name}.py", tmp_path / name / "agent.py")
        driver.get(link)
        section = driver.find_element(By.ID, exercise)
        section.find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(handed))
        follow(driver, f"#{exercise} button[type=submit]")
        assert driver.current_url == f"{link}?handed={exercise}#{exercise}"

    driver.get(instructor)
    driver.get(f"{base}/i/c/1/league")
    assert "No league has been played yet" in words(driver, "main")
    shot(driver, "1-none-yet")
    for field, value in (("league-openings", "1"), ("league-cpu", "0.5")):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    follow(driver, "#play ~ form button[type=submit]")
    ends = time.monotonic() + PLAYED_WITHIN
    assert "The league is being played" in words(driver, "p.saved")
    while "being played" in words(driver, "main"):
        assert time.monotonic() < ends, "the league was not played in time"
        time.sleep(1)
        driver.get(f"{base}/i/c/1/league")  # not the address that says it was started
    rows = driver.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr")
    assert [" ".join(row.text.split()[:3]) for row in rows][0] == "1 Ada #1"
    assert len(rows) == 3
    assert "mu - 3 sigma" in words(driver, "#rating-rule") and "sigma" in words(driver, "main")
    head = driver.find_elements(By.CSS_SELECTOR, "table.head-to-head tbody tr")
    assert [row.text.split()[0] for row in head] == ["#1", "#2", "#3"]
    assert words(driver, "table.head-to-head tbody tr:first-child td:nth-of-type(2)") == "2-0"
    shot(driver, "2-leaderboard")

    follow(driver, "table.leaderboard tbody tr th a")
    assert words(driver, "h1") == "League games of Ada #1"
    assert len(driver.find_elements(By.CSS_SELECTOR, "table.games tbody tr")) == 4
    shot(driver, "3-student-games")
    follow(driver, "table.games tbody tr th a")
    boards = driver.find_elements(By.CSS_SELECTOR, "table.board")
    pictures = driver.find_elements(By.CSS_SELECTOR, "figure svg.board-picture")
    moves = driver.find_elements(By.CSS_SELECTOR, "ol.moves li")
    assert len(boards) == len(pictures) == len(moves) + 1 >= 3
    assert boards[1].find_element(By.TAG_NAME, "caption").get_attribute(
        "textContent").startswith("The board after move 1: player 1")
    caption = driver.find_elements(By.CSS_SELECTOR, "figure figcaption")[1].text
    assert caption.startswith("move 1: player 1") and "outlined" in caption
    # the last move's outline, on every picture but the empty board's
    marked = [len(p.find_elements(By.CSS_SELECTOR, "rect[stroke='#c2410c']")) for p in pictures]
    assert marked == [0] + [1] * len(moves)
    follow_step = driver.find_element(By.CSS_SELECTOR, "#move-1 ~ nav a[href='#move-2']")
    follow_step.click()
    assert driver.current_url.endswith("#move-2")
    shot(driver, "4-replay")

    driver.get(f"{base}/i/c/1/league")
    driver.find_element(By.ID, "league-shown").click()
    follow(driver, "#students ~ form button[type=submit]")
    assert "Students see the leaderboard" in words(driver, "p.saved")
    driver.delete_all_cookies()
    driver.get(f"{students[1]}/league")
    assert "Bob #2 (you)" in words(driver, "table.leaderboard")
    assert len(driver.find_elements(By.CSS_SELECTOR, "table.games tbody tr")) == 4
    shot(driver, "5-student-leaderboard")
    follow(driver, "table.games tbody tr th a")
    assert driver.find_elements(By.CSS_SELECTOR, "table.board")
    shot(driver, "6-student-replay")
