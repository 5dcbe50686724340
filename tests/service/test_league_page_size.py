"""The service's league pages for a class of 30 at the exercise's openings (8,700
games): the leaderboard and a student's list of games stay under a megabyte,
for no page holds a replay (each game's is a page of its own)."""

import json
import random

from grader.match import handin, tournament
from grader.match.referee import Game
from grader.service import leagues
from grader.service.models import League, LeagueEntry, LeagueGame

MEGABYTE = 1 << 20
CLASS = 30


def test_a_class_of_30_gets_league_pages_under_a_megabyte(make):
    site = make()
    people = [(f"Student {number:02d} of the class", f"s{number}@example.edu")
              for number in range(CLASS)]
    tokens = site.enrol(*people)
    for token in tokens:
        assert site.hand_in(token, ("agent.py", b"class Agent: pass\n"),
                            exercise="agent").status_code == 303
    settings = handin.config().settings
    students = {student.id: (student, submission) for student, submission in
                leagues.latest(site.service, 1, handin.exercise().id)}
    assert len(students) == CLASS
    names = {sid: leagues.agent_name(student) for sid, (student, _) in students.items()}
    ids = {name: sid for sid, name in names.items()}
    draw = random.Random(3)
    with site.service.sessions.begin() as session:
        league = League(course_id=1, exercise_id=handin.exercise().id,
                        settings=leagues.settings_json(settings), state="done", shown=True,
                        created_at=site.service.now())
        session.add(league)
        session.flush()
        session.add_all(LeagueEntry(league_id=league.id, student_id=sid,
                                    submission_id=submission.id, name=names[sid])
                        for sid, (_, submission) in students.items())
        ordered = sorted(names.values())
        for i, first in enumerate(ordered):
            for second in ordered[i + 1:]:
                for game_id, one, other, _ in tournament.game_ids(first, second,
                                                                  settings.openings):
                    winner = draw.randrange(2)
                    reason = f"{(one, other)[winner ^ 1]} had no move left"
                    body = Game(game_id, "knights", 1, (one, other), winner=winner,
                                reason=reason)
                    session.add(LeagueGame(league_id=league.id, game_id=game_id,
                                           first_id=ids[one], second_id=ids[other],
                                           winner=winner, reason=reason,
                                           body=json.dumps(body.to_json())))
    games = CLASS * (CLASS - 1) // 2 * 2 * settings.openings
    client = site.login()
    board = client.get("/i/c/1/league")
    assert board.status_code == 200 and f"{games} games played" in board.text
    assert len(board.content) <= MEGABYTE
    own = client.get(f"/i/c/1/league/students/{min(names)}")
    assert len(own.content) <= MEGABYTE
    assert own.text.count("/league/games/") == (CLASS - 1) * 2 * settings.openings
    seen = site.client.get(f"/s/{tokens[0]}/league")  # a student's: the board and their games
    assert seen.status_code == 200 and len(seen.content) <= MEGABYTE
    assert seen.text.count("/league/games/") == (CLASS - 1) * 2 * settings.openings
    assert "<svg" not in board.text + own.text + seen.text
