"""The agent exercise's league on the service: a round robin among the active
students' latest hand-ins, played by ``grader.match.league`` here, or on the
grading hosts through Celery when the service has a broker; its games are kept
in the database as they end.

A league is its settings (the game, the seed, the openings, the time a move):
played again under the same, it plays only the games it lacks, after dropping
those of each student whose latest agent changed or who left; under others it
is a new league. The same seed and agents give the same openings and games.
"""

import dataclasses
import functools
import itertools
import json
import logging
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

from markupsafe import Markup
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker, undefer

from grader.games.knights.rules import QueenBoard, new_board
from grader.match import boards, handin, league, tournament
from grader.match.league import Row
from grader.match.referee import Game, Ply, describe
from grader.service.core import Service
from grader.service.models import League, LeagueEntry, LeagueGame, Student, Submission

log = logging.getLogger("grader.service")


def agent_name(student: Student) -> str:
    """A student's agent in its games: their name, and their id, which tells two
    students of one name apart."""
    return f"{student.name} #{student.id}"


class Stored:
    """One league's games in the database, as a tournament keeps them
    (``tournament.Games``): each one committed as it ends."""

    def __init__(self, sessions: sessionmaker[Session], league_id: int,
                 students: dict[str, int]) -> None:
        self.sessions, self.league_id, self.students = sessions, league_id, students
        self.lock = threading.Lock()
        with sessions() as session:
            rows = session.scalars(select(LeagueGame).where(LeagueGame.league_id == league_id)
                                   .options(undefer(LeagueGame.body)))
            self.games = {row.game_id: Game.from_json(json.loads(row.body)) for row in rows}

    def add(self, game: Game) -> None:
        with self.lock:
            try:
                with self.sessions.begin() as session:
                    session.add(LeagueGame(
                        league_id=self.league_id, game_id=game.id,
                        first_id=self.students[game.names[0]],
                        second_id=self.students[game.names[1]], winner=game.winner,
                        reason=game.reason, body=json.dumps(game.to_json())))
            except IntegrityError:  # played twice (a pairing sent again): one is kept
                pass
            self.games[game.id] = game


def latest(service: Service, course_id: int,
           exercise_id: str) -> list[tuple[Student, Submission]]:
    """Each of the course's active students' latest hand-in of the exercise."""
    newest = (select(func.max(Submission.id)).where(Submission.exercise_id == exercise_id)
              .group_by(Submission.student_id))
    with service.sessions() as session:
        found = session.execute(
            select(Student, Submission).join(Submission, Submission.student_id == Student.id)
            .where(Student.active, Student.course_id == course_id, Submission.id.in_(newest))
            .order_by(Student.id))
        return [(student, submission) for student, submission in found]


def settings_json(settings: tournament.Settings) -> str:
    return json.dumps(asdict(settings), sort_keys=True)


def newest(session: Session, course_id: int, exercise_id: str) -> League | None:
    return session.scalar(select(League).where(League.course_id == course_id,
                                               League.exercise_id == exercise_id)
                          .order_by(League.id.desc()).limit(1))


def _league(session: Session, service: Service, course_id: int, exercise_id: str,
            settings: tournament.Settings) -> League:
    """The course's newest league where it has ``settings``, else a new one."""
    wanted = settings_json(settings)
    found = newest(session, course_id, exercise_id)
    if found is None or found.settings != wanted:
        found = League(course_id=course_id, exercise_id=exercise_id, settings=wanted,
                       state="waiting", shown=bool(found and found.shown),
                       created_at=service.now())
        session.add(found)
        session.flush()
    return found


def schedule(service: Service, course_id: int, exercise_id: str,
             settings: tournament.Settings, at: datetime) -> None:
    """Have the course's league of ``settings`` played at ``at`` (the service's
    clock), with the students' latest agents then (see ``due``)."""
    with service.sessions.begin() as session:
        found = _league(session, service, course_id, exercise_id, settings)
        found.state, found.starts_at = "waiting", at


def due(service: Service) -> list[tuple[int, str, tournament.Settings]]:
    """The scheduled leagues whose time has come: their course, exercise and settings."""
    with service.sessions() as session:
        found = session.scalars(select(League).where(League.state == "waiting",
                                                     League.starts_at <= service.now()))
        return [(league.course_id, league.exercise_id,
                 tournament.Settings.from_json(json.loads(league.settings)))
                for league in found]


def prepare(service: Service, course_id: int, exercise_id: str,
            settings: tournament.Settings) -> int:
    """The course's league to play under ``settings``, its entries the students'
    latest agents: the newest league where it has these settings (the games of a
    student whose agent changed, or who left, dropped), else a new one. Its id."""
    agents = {student.id: (student, submission)
              for student, submission in latest(service, course_id, exercise_id)}
    with service.sessions.begin() as session:
        found = _league(session, service, course_id, exercise_id, settings)
        found.state, found.error, found.finished_at = "playing", None, None
        entries = {entry.student_id: entry.submission_id for entry in session.scalars(
            select(LeagueEntry).where(LeagueEntry.league_id == found.id))}
        changed = [student_id for student_id, submission_id in entries.items()
                   if student_id not in agents or agents[student_id][1].id != submission_id]
        if changed:
            session.execute(delete(LeagueGame).where(
                LeagueGame.league_id == found.id,
                or_(LeagueGame.first_id.in_(changed), LeagueGame.second_id.in_(changed))))
            session.execute(delete(LeagueEntry).where(LeagueEntry.league_id == found.id,
                                                      LeagueEntry.student_id.in_(changed)))
        session.add_all(LeagueEntry(league_id=found.id, student_id=student.id,
                                    submission_id=submission.id, name=agent_name(student))
                        for student, submission in agents.values()
                        if student.id not in entries or student.id in changed)
        return found.id


def play(service: Service, league_id: int, jobs: int = 1) -> None:
    """Play the league's games it lacks (on the grading hosts where the service has
    a broker); then it is done, or stopped with the reason why."""
    with service.sessions() as session:
        found = session.get(League, league_id)
        assert found is not None
        settings = tournament.Settings.from_json(json.loads(found.settings))
        entries = list(session.scalars(select(LeagueEntry)
                                       .where(LeagueEntry.league_id == league_id)))
    config = dataclasses.replace(handin.config(), settings=settings)
    state, error = "done", None
    try:
        with tempfile.TemporaryDirectory(prefix="minimax-league-") as temp:
            files = {}
            for entry in entries:
                submission = service.students.submission(entry.submission_id)
                assert submission is not None  # a hand-in is never deleted
                stored = {f.name: f.sha256 for f in submission.files}
                if config.file in stored:  # the agent, and the modules handed in with it
                    files[entry.name] = Path(temp) / str(entry.student_id)
                    files[entry.name].mkdir()
                    handin.unpack({name: service.store.get(digest)
                                   for name, digest in stored.items()}, files[entry.name])
            store = Stored(service.sessions, league_id,
                           {entry.name: entry.student_id for entry in entries})
            league.play(files, config, store, service.options.sandbox, jobs,
                        service.options.broker)
    except Exception as exc:  # the league stops and says why; what it played is kept
        log.exception("league %d stopped", league_id)
        state, error = "error", f"{type(exc).__name__}: {exc}"
    with service.sessions.begin() as session:
        session.execute(update(League).where(League.id == league_id).values(
            state=state, error=error, finished_at=service.now()))


def show(service: Service, course_id: int, exercise_id: str, shown: bool) -> bool:
    """Open the course's newest league's leaderboard to its students, or close it:
    whether there is a league to open."""
    with service.sessions.begin() as session:
        found = newest(session, course_id, exercise_id)
        if found is not None:
            found.shown = shown
        return found is not None


def playing(service: Service) -> list[int]:
    """The leagues left playing (the service stopped mid-league): to go on with."""
    with service.sessions() as session:
        return list(session.scalars(select(League.id).where(League.state == "playing")))


@dataclass
class Standing:
    """A league as its pages show it: the table, the games (their results only),
    and whose agent each name is."""

    league: League
    settings: tournament.Settings
    rows: list[Row]
    games: list[LeagueGame]  # in the order the ratings took them
    students: dict[str, int]  # an agent's name: its student's id
    names: dict[int, str]  # a student's id: their agent's name
    head: dict[str, dict[str, list[int]]]  # league.head_to_head's table

    def row_of(self, student_id: int) -> Row | None:
        return next((row for row in self.rows if row.name == self.names.get(student_id)),
                    None)

    def games_of(self, student_id: int) -> list[LeagueGame]:
        return [g for g in self.games if student_id in (g.first_id, g.second_id)]

    def outcome(self, game: LeagueGame, student_id: int) -> str:
        seat = 0 if game.first_id == student_id else 1
        return "no result" if game.winner is None else "won" if game.winner == seat else "lost"


def standing(service: Service, course_id: int, exercise_id: str) -> Standing | None:
    """The course's newest league, rated from the games it has so far; None before any."""
    with service.sessions() as session:
        found = newest(session, course_id, exercise_id)
        if found is None:
            return None
        entries = list(session.scalars(select(LeagueEntry)
                                       .where(LeagueEntry.league_id == found.id)))
        rows = {row.game_id: row for row in session.scalars(
            select(LeagueGame).where(LeagueGame.league_id == found.id))}
    settings = tournament.Settings.from_json(json.loads(found.settings))
    names = {entry.student_id: entry.name for entry in entries}
    order = [game_id for first, second in itertools.combinations(sorted(names.values()), 2)
             for game_id, *_ in tournament.game_ids(first, second, settings.openings)]
    games = [rows[game_id] for game_id in order if game_id in rows]
    results = tuple((g.game_id, names[g.first_id], names[g.second_id], g.winner, g.reason)
                    for g in games)
    agents = tuple(sorted(names.values()))
    head = league.head_to_head(agents, [Game(game_id, "", 0, (first, second), winner=winner)
                                        for game_id, first, second, winner, _ in results])
    return Standing(found, settings, list(_rated(agents, results)), games,
                    {name: student_id for student_id, name in names.items()}, names, head)


@functools.lru_cache(maxsize=8)
def _rated(names: tuple[str, ...],
           results: tuple[tuple[str, str, str, int | None, str], ...]) -> tuple[Row, ...]:
    """The table of these results: kept, since rating a large league's games anew at
    each look at its page takes a second (50 agents, 5 openings)."""
    return tuple(league.table(names, [Game(game_id, "", 0, (first, second), winner=winner,
                                           reason=reason)
                                      for game_id, first, second, winner, reason in results]))


def game(service: Service, course_id: int,
         game_key: int) -> tuple[LeagueGame, Game] | None:
    """A game of any of the course's leagues, by its row's id, with its moves."""
    with service.sessions() as session:
        row = session.scalar(select(LeagueGame).join(League)
                             .where(LeagueGame.id == game_key, League.course_id == course_id)
                             .options(undefer(LeagueGame.body)))
    return None if row is None else (row, Game.from_json(json.loads(row.body)))


def shown_league(service: Service, league_id: int) -> bool:
    with service.sessions() as session:
        found = session.get(League, league_id)
        return bool(found and found.shown)


# -- the replay: the board at each move, as a picture and as a table's rows -------------

MARKS = {"open": ".", "closed": "#"}


@dataclass
class Frame:
    """The board after one move (``number`` 0: the empty board), said in words."""

    number: int
    said: str
    rows: list[list[str]]  # by y, then x: "1", "2", MARKS
    picture: Markup  # the board drawn (SVG), the last move marked
    seen: str  # the picture in words


def frames(played: Game) -> list[Frame]:
    state = new_board(played.variant)
    shown = [_frame(0, "before the first move", state, None)]
    plies: Sequence[Ply] = played.plies
    for number, ply in enumerate(plies, 1):
        state = state.forecast_move(ply.move)
        shown.append(_frame(number, describe(played, number, ply), state, ply.move))
    return shown


def _frame(number: int, said: str, state: QueenBoard, last: tuple[int, int] | None) -> Frame:
    seen = boards.words(state, last)
    # the grader's own markup: numbers, and words it escapes itself
    picture = Markup(boards.svg(state, last, f"{said}: {seen}"))  # noqa: S704
    return Frame(number, said, _cells(state), picture, seen)


def _cells(state: QueenBoard) -> list[list[str]]:
    here = {state.location(player): str(player + 1) for player in (0, 1)}
    unused = set(state.open_cells())
    return [[here.get((x, y)) or (MARKS["open"] if (x, y) in unused else MARKS["closed"])
             for x in range(state.width)] for y in range(state.height)]
