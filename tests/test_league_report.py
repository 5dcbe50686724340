"""`league --format json`: the standings as a schema-valid report, each student's
status, and why an agent that could not start did not."""

import json
from pathlib import Path

import jsonschema
import pytest

from grader.cli import main
from grader.match import handin, league
from grader.match.referee import Game
from grader.sandbox import local

SCHEMA = json.loads(league.SCHEMA.read_text())
AGENTS = Path(__file__).parent / "agents"


def game(number, names, winner, reason):
    return Game(f"g{number}", "knights", number, names, winner=winner, reason=reason)


def test_each_students_status_and_why_theirs_could_not_start():
    games = [
        game(1, ("ann", "bob"), 0, "ann had no move left"),
        game(2, ("bob", "ann"), 1, "bob ran out of time: 2.00 s of CPU time"),
        game(3, ("ann", "cy"), 0, "cy could not start: raised SyntaxError: invalid syntax"),
        game(4, ("cy", "ann"), 1, "cy could not start: raised SyntaxError: invalid syntax"),
        game(5, ("bob", "cy"), None, "neither agent started: could not start: raised "
                                     "NameError; could not start: raised SyntaxError"),
    ]
    names = ["ann", "bob", "cy", "dee"]
    made = league.report(handin.config(), league.table(names, games), games)
    jsonschema.validate(made, SCHEMA)
    found = {row["name"]: (row["status"], row["reason"]) for row in made["standings"]}
    assert found == {
        "ann": ("played", None),
        "bob": ("played", None),  # one game it could not start does not make it a non-starter
        "cy": ("could not start", "raised SyntaxError: invalid syntax"),
        "dee": ("no games", None),
    }
    assert [row["rank"] for row in made["standings"]] == [1, 2, 3, 4]
    assert made["standings"][0]["name"] == "ann" and made["standings"][0]["wins"] == 4


def test_an_agent_that_never_starts_against_others_that_never_do_says_both_reasons():
    games = [game(1, ("x", "y"), None, "neither agent started: could not start: A; "
                                       "could not start: B")]
    made = league.report(handin.config(), league.table(["x", "y"], games), games)
    assert {row["status"] for row in made["standings"]} == {"could not start"}
    assert all("could not start: A" in row["reason"] for row in made["standings"])


def test_the_report_is_checked_against_its_schema():
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"schema_version": 1, "standings": [{"status": "fine"}]}, SCHEMA)


def test_league_format_json_prints_the_report(tmp_path, capsys):
    if not local.is_boundary():
        pytest.skip("agents in bubblewrap: bwrap is not usable here")
    entries = tmp_path / "in"
    entries.mkdir()
    (entries / "weak.py").write_bytes((AGENTS / "weak.py").read_bytes())
    (entries / "broken.py").write_text("class Agent(:\n")
    out = tmp_path / "out"
    assert main(["league", str(entries), "-o", str(out), "--format", "json", "--openings", "1",
                 "--cpu-seconds", "0.5", "--jobs", "1"]) == 0
    made = json.loads(capsys.readouterr().out)
    jsonschema.validate(made, SCHEMA)
    assert made["bounded"] is True and made["openings"] == 1
    first, last = made["standings"]
    assert (first["name"], first["status"], first["reason"], first["wins"]) == \
        ("weak", "played", None, 2)
    assert (last["name"], last["status"]) == ("broken", "could not start")
    assert "SyntaxError" in last["reason"]
