"""The agent exercise on the service: an agent handed in through the student's
page is graded by play; the instructor plays a league over the students'
latest agents through the pages (in bubblewrap, as the service's local
sandbox), reads its leaderboard and every game's replay, opens it to the
students, each of whom sees it and their own games only; a league played again
plays only what it lacks, and again the games of an agent handed in anew; a
league the service stopped in the middle goes on when it starts again, and one
scheduled for later plays the agents handed in by then; with a
broker, the pairings are played by minimax-grader match-host processes."""

import html
import io
import json
import os
import re
import shutil
import time
import zipfile
from datetime import timedelta
from itertools import combinations
from pathlib import Path

import pytest
from conftest import skip_loudly
from sqlalchemy import select
from starlette.testclient import TestClient

from grader import exercises
from grader.match import handin, launch, league, tournament
from grader.match.referee import Game
from grader.sandbox import local
from grader.service import app, leagues
from grader.service.leaderboard import WATCH_SECONDS
from grader.service.models import League, LeagueGame
from tests.service.conftest import ROOT
from tests.service.test_league_hosts import broker  # noqa: F401  (a fixture)

AGENTS = ROOT / "tests" / "agents"
ADA, BOB, CY = ("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"), ("Cy", "cy@example.edu")
FLAGS = {"seed": "7", "openings": "1", "cpu_seconds": "0.5"}


@pytest.fixture
def quick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent exercise with one opening an opponent (its games take seconds): its
    hand-ins are graded by its folder's match.toml, its league plays by handin.CONFIG."""
    if not local.is_boundary() and os.geteuid() == 0:
        skip_loudly("agents in bubblewrap", "bwrap is not usable here")
    root = tmp_path / "exercises"
    shutil.copytree(exercises.ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    toml = root / "agent" / "match.toml"
    toml.write_text(toml.read_text().replace("openings = 10", "openings = 1")
                    .replace("cpu_seconds = 1.0", "cpu_seconds = 0.5"))
    monkeypatch.setattr(exercises, "ROOT", root)
    monkeypatch.setattr(handin, "CONFIG", toml)


def agent(name: str) -> tuple[str, bytes]:
    return "agent.py", (AGENTS / f"{name}.py").read_bytes()


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.text)).split())


def csrf(client: TestClient, path: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def play(client: TestClient, **flags: str) -> None:
    response = client.post("/i/c/1/league/play", data={"csrf": csrf(client, "/i/c/1/league"),
                                                   **FLAGS, **flags})
    assert response.status_code == 303, response.text
    ends = time.monotonic() + 300  # a wide margin on a loaded machine
    while "is being played" in client.get("/i/c/1/league").text:
        assert time.monotonic() < ends, "the league never ended"
        time.sleep(0.2)


def game_links(page: str) -> list[str]:
    return re.findall(r'href="([^"]*/league/games/\d+)"', page)


def stored(site) -> dict[str, tuple[int, list]]:
    """Each stored game: its row's id and its moves."""
    with site.service.sessions() as session:
        rows = session.scalars(select(LeagueGame)).all()
        return {row.game_id: (row.id, [p["move"] for p in json.loads(row.body)["plies"]])
                for row in rows}


def test_a_handed_in_agent_is_graded_by_play(make, quick):
    site = make(sandbox="local")
    [token] = site.enrol(ADA)
    assert site.hand_in(token, agent("weak"), exercise="agent").status_code == 303
    assert site.service.jobs.drain() == 1
    [attempt] = site.service.students.attempts(1, "agent", bodies=True)
    report = json.loads(attempt.reports[0].body)
    assert report["status"] == "graded" and report["max_score"] == 10
    assert [t["name"] for t in report["tests"]] == ["random", "minimax", "alphabeta"]
    assert "One lost game, move by move" in report["output"]["text"]
    page = text(site.client.get(f"/s/{token}/attempts/{attempt.id}"))
    assert "Wins against alphabeta" in page and "won 0 of 2" in page


@pytest.mark.parametrize("as_zip", [True, False])
def test_an_agent_of_several_files_is_handed_in_as_they_are(make, quick, as_zip):
    site = make(sandbox="local")
    [token] = site.enrol(ADA)
    modules = [(path.name, path.read_bytes()) for path in sorted((AGENTS / "aind").iterdir())
               if path.suffix == ".py"]
    if as_zip:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            for name, body in modules:
                archive.writestr(f"my_agent/{name}", body)
        modules = [("my_agent.zip", out.getvalue())]
    assert site.hand_in(token, *modules, exercise="agent").status_code == 303
    assert site.service.jobs.drain() == 1
    [attempt] = site.service.students.attempts(1, "agent", bodies=True)
    report = json.loads(attempt.reports[0].body)
    assert report["status"] == "graded", report["message"]
    assert [f["name"] for f in report["submission"]["files"]] == \
        ["agent.py", "game_agent.py", "sample_players.py"]
    assert "random" in [t["name"] for t in report["tests"]] and report["score"] > 0


def test_the_league_through_the_pages(make, quick):
    site = make(sandbox="local")
    ada, bob, cy = site.enrol(ADA, BOB, CY)
    for token, name in ((ada, "weak"), (bob, "crash"), (cy, "illegal")):
        assert site.hand_in(token, agent(name), exercise="agent").status_code == 303
    assert "not opened" in text(site.client.get(f"/s/{ada}/league"))
    client = site.login()
    assert "No league has been played yet" in text(client.get("/i/c/1/league"))
    play(client)

    page = client.get("/i/c/1/league").text
    board = text(client.get("/i/c/1/league"))
    assert site.count("league_games") == 6  # 3 pairings, one opening from both sides
    assert re.search(r"1\s+Ada #1\s+[-\d.]+\s+[-\d.]+ ± [\d.]+\s+4\s+4\s+100%\s+0\s+0\s+0", board)
    with site.service.sessions() as session:
        games = {row.game_id: Game.from_json(json.loads(row.body))
                 for row in session.scalars(select(LeagueGame))}
    names = ["Ada #1", "Bob #2", "Cy #3"]  # rated in the order a league plays its pairings
    rows = league.table(names, [games[game_id] for first, second in combinations(names, 2)
                                for game_id, *_ in tournament.game_ids(first, second, 1)])
    assert [row.name for row in rows] == re.findall(r'/i/c/1/league/students/\d+">([^<]+)<', page)
    assert all(f"{row.ordinal:.2f}" in board for row in rows)
    assert league.RATING in board and "Head to head" in board

    ada_page = client.get("/i/c/1/league/students/1")
    assert len(game_links(ada_page.text)) == 4
    replay = client.get(game_links(ada_page.text)[0])
    assert replay.status_code == 200 and "<h1>Game " in replay.text, replay.text[:4000]
    played = games[html.unescape(replay.text.split("<h1>Game ", 1)[1].split("</h1>")[0])]
    assert replay.text.count('<table class="board">') == len(played.plies) + 1
    # each board drawn too, the last move outlined, and stepped through by links
    assert replay.text.count('class="board-picture"') == len(played.plies) + 1
    assert replay.text.count('stroke="#c2410c"') == len(played.plies)
    assert '<a href="#move-2">next move</a>' in replay.text
    assert "<caption>The board after move 1: player 1" in replay.text
    assert re.search(r"<li><a href=\"#move-1\">move 1: player 1 \(.+\) to \(\d, \d\) "
                     r"\(the opening, placed by the referee\)</a></li>", replay.text)

    # Opened to the students: each sees the table and their own games, no other's.
    form = {"csrf": csrf(client, "/i/c/1/league"), "shown": "1"}
    assert client.post("/i/c/1/league/shown", data=form).status_code == 303
    client.cookies.clear()
    own = client.get(f"/s/{bob}/league")
    assert "Bob #2 (you)" in text(own) and "Ada #1 (you)" not in text(own)
    assert len(game_links(own.text)) == 4
    assert all(client.get(link).status_code == 200 for link in game_links(own.text))
    number = re.compile(r"/(\d+)$")
    adas = {number.search(link)[1] for link in game_links(client.get(f"/s/{ada}/league").text)}
    theirs = adas - {number.search(link)[1] for link in game_links(own.text)}  # Ada v Cy
    assert len(theirs) == 2 and all(
        client.get(f"/s/{bob}/league/games/{key}").status_code == 404 for key in theirs)
    assert client.get("/i/c/1/league").status_code == 403


def test_a_league_played_again_plays_only_what_changed(make, quick):
    site = make(sandbox="local")
    ada, bob, cy = site.enrol(ADA, BOB, CY)
    for token in (ada, bob, cy):
        site.hand_in(token, agent("weak"), exercise="agent")
    client = site.login()
    play(client)
    first = stored(site)
    assert len(first) == 6
    play(client)  # the same settings: nothing is missing, nothing is played
    assert stored(site) == first
    site.clock.advance(minutes=1)
    client.cookies.clear()
    site.hand_in(bob, agent("illegal"), exercise="agent")
    client = site.login()
    play(client)
    again = stored(site)
    bobs = {game_id for game_id in first if "Bob #2" in game_id}
    assert {k: v for k, v in again.items() if k not in bobs} == \
        {k: v for k, v in first.items() if k not in bobs}
    # Played again from the same openings, where Bob's new agent moves off the board
    # (not told by the games' ids: SQLite may give a deleted row's id again).
    assert all(again[k][1][:2] == first[k][1][:2] and len(again[k][1]) < len(first[k][1])
               for k in bobs)
    play(client, seed="8")  # other settings: a new league, its own openings
    assert site.count("leagues") == 2 and site.count("league_games") == 12


def test_a_league_stopped_with_the_service_goes_on_when_it_starts(make, quick):
    site = make(sandbox="local")
    for token in site.enrol(ADA, BOB, CY):
        site.hand_in(token, agent("weak"), exercise="agent")
    settings = handin.config(seed=7).settings
    league_id = leagues.prepare(site.service, 1, "agent", settings)  # playing, as at a stop
    names = {"Ada #1": 1, "Bob #2": 2}
    tournament.play_pairing("Ada #1", "Bob #2",
                            lambda who: launch.student(who, AGENTS / "weak.py", "Agent"),
                            settings, leagues.Stored(site.service.sessions, league_id, names))
    before = stored(site)
    assert len(before) == 2
    again = make(sandbox="local")  # the same folder, as a restarted service finds it
    with TestClient(app.build(again.service)):  # its start goes on with the league
        ends = time.monotonic() + 300  # a wide margin on a loaded machine
        while leagues.playing(again.service):
            assert time.monotonic() < ends, "the league never went on"
            time.sleep(0.2)
    after = stored(again)
    assert len(after) == 6 and {k: after[k] for k in before} == before


def test_a_league_on_the_grading_hosts(make, quick, broker):  # noqa: F811
    site = make(sandbox="local", broker=broker)
    for token, name in zip(site.enrol(ADA, BOB, CY), ("weak", "crash", "illegal"), strict=True):
        site.hand_in(token, agent(name), exercise="agent")
    client = site.login()
    play(client)
    first = stored(site)
    assert len(first) == 6 and "stopped" not in text(client.get("/i/c/1/league"))
    assert re.search(r"1 Ada #1 [-\d.]+ [-\d.]+ ± [\d.]+ 4 4 100% 0 0 0",
                     text(client.get("/i/c/1/league")))
    play(client)  # nothing missing: nothing sent
    assert stored(site) == first


def test_a_league_scheduled_for_later_plays_the_agents_handed_in_by_then(make, quick):
    site = make(sandbox="local")
    ada, bob, cy = site.enrol(ADA, BOB, CY)
    for token in (ada, bob):
        site.hand_in(token, agent("weak"), exercise="agent")
    later = site.clock.now + timedelta(hours=1)
    with TestClient(app.build(site.service), follow_redirects=False) as client:  # its watch
        client.get(f"/i/{site.secret}")
        response = client.post("/i/c/1/league/play", data={
            "csrf": csrf(client, "/i/c/1/league"), **FLAGS,
            "starts_at": later.isoformat(timespec="minutes")})
        assert response.headers["location"] == "/i/c/1/league?saved=scheduled"
        assert "scheduled for 2026-03-02 13:00 UTC" in text(client.get("/i/c/1/league"))
        time.sleep(3 * WATCH_SECONDS)
        assert site.count("league_entries") == 0 and site.count("league_games") == 0
        site.hand_in(cy, agent("weak"), exercise="agent")  # before the time: it plays
        site.clock.advance(hours=2)
        ends = time.monotonic() + 300  # a wide margin on a loaded machine
        # One look a round: two could see it scheduled, then playing, and stop early.
        while (page := text(client.get("/i/c/1/league"))) and \
                ("being played" in page or "scheduled" in page):
            assert time.monotonic() < ends, "the scheduled league was never played"
            time.sleep(0.2)
    assert site.count("league_entries") == 3 and site.count("league_games") == 6


def test_a_leagues_time_is_picked_and_shown_in_the_courses_zone(make):
    site = make(sandbox="local")
    site.service.access.set_time_zone(1, "Europe/Berlin")  # CET in March: UTC + 1
    with TestClient(app.build(site.service), follow_redirects=False) as client:
        client.get(f"/i/{site.secret}")
        page = client.get("/i/c/1/league").text
        assert 'type="date" id="league-starts-date" name="starts_at_date"' in page
        assert "play at (empty: now) (Europe/Berlin)" in text(client.get("/i/c/1/league"))
        form = {"csrf": csrf(client, "/i/c/1/league"), **FLAGS}
        wrong = client.post("/i/c/1/league/play", data={**form, "starts_at_date": "2026-03-02",
                                                          "starts_at_time": "25:00"})
        assert wrong.status_code == 400 and "in the course's zone (Europe/Berlin)" in text(wrong)
        response = client.post("/i/c/1/league/play", data={
            **form, "starts_at_date": "2026-03-02", "starts_at_time": "15:30"})
        assert response.headers["location"] == "/i/c/1/league?saved=scheduled"
        assert "scheduled for 2026-03-02 15:30 CET" in text(client.get("/i/c/1/league"))
    with site.service.sessions() as session:
        [starts] = session.scalars(select(League.starts_at))
    assert starts.isoformat() == "2026-03-02T14:30:00"  # stored in UTC
    assert site.count("league_games") == 0  # not played before its time


def test_what_an_agent_printed_is_shown_to_the_instructor_and_its_student_only(make, quick):
    site = make(sandbox="local")
    ada, bob = site.enrol(ADA, BOB)
    site.hand_in(ada, agent("weak"), exercise="agent")
    site.hand_in(bob, agent("flood"), exercise="agent")
    client = site.login()
    play(client)
    form = {"csrf": csrf(client, "/i/c/1/league"), "shown": "1"}
    assert client.post("/i/c/1/league/shown", data=form).status_code == 303
    [first, *_] = game_links(client.get("/i/c/1/league/students/1").text)
    assert "What Bob #2 printed (capped)" in text(client.get(first))
    assert "spam spam" in text(client.get(first))
    client.cookies.clear()
    key = first.rsplit("/", 1)[1]
    assert "spam" not in client.get(f"/s/{ada}/league/games/{key}").text
    assert "What Bob #2 printed" in text(client.get(f"/s/{bob}/league/games/{key}"))
