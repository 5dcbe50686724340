"""The league's pages: the instructor plays a league over the students' latest
agents and sees its leaderboard (the rating explained, win rates, head to
head) and every game; once the instructor opens it, a student sees the
leaderboard and their own games. Each game is replayed on a page of its own:
the board at each move as a picture with the last move marked, stepped
through by links, and as a table; the moves as text.

The league plays in a thread of the web process, which plays its pairings here
or sends them to the grading hosts (see ``leagues``); one league at a time. A
league scheduled for later is started by a thread that looks for it every few
seconds, with the students' latest agents then.
"""

import logging
import threading
from typing import Protocol

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from grader.match import handin, league, tournament
from grader.match.config import BadConfig
from grader.match.referee import Game, result
from grader.service import forms, leagues
from grader.service.models import LeagueGame, Student
from grader.service.times import when
from grader.service.webpages import Pages

log = logging.getLogger("grader.service")
WATCH_SECONDS = 2.0  # how often the scheduled leagues are looked at
SAVED = {"playing": "The league is being played: reload this page to see its games as "
                    "they end.",
         "scheduled": "The league is scheduled: it plays the students' latest agents then.",
         "shown": "Students see the leaderboard and their own games now.",
         "hidden": "The leaderboard is hidden from students now."}


class StudentPages(Pages, Protocol):
    """What the league's pages use of the app's besides: the student of a link."""

    async def student(self, request: Request) -> Student: ...


class Leaderboard:
    def __init__(self, web: StudentPages) -> None:
        self.web = web
        self.service = web.service
        self.exercise_id = handin.exercise().id
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def routes(self) -> list[Route]:
        league = "/i/c/{course:int}/league"
        return [Route(league, self.instructor, methods=["GET"]),
                Route(f"{league}/play", self.play, methods=["POST"]),
                Route(f"{league}/shown", self.shown, methods=["POST"]),
                Route(f"{league}/students/{{student:int}}", self.instructor_student,
                      methods=["GET"]),
                Route(f"{league}/games/{{game:int}}", self.instructor_game, methods=["GET"]),
                Route("/s/{token}/league", self.student_page, methods=["GET"]),
                Route("/s/{token}/league/games/{game:int}", self.student_game,
                      methods=["GET"])]

    # -- playing --------------------------------------------------------------------

    def playing(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, league_id: int) -> bool:
        """Play the league in a thread of its own: False while another plays."""
        with self._lock:
            if self.playing():
                return False
            self._thread = threading.Thread(
                target=leagues.play, args=(self.service, league_id, self.service.options.workers),
                name=f"league-{league_id}", daemon=True)
            self._thread.start()
            return True

    def play_now(self, course_id: int, settings: tournament.Settings) -> bool:
        """Play the course's league of ``settings`` with the latest agents: False while
        one plays."""
        with self._lock:
            return not self.playing() and self.start(
                leagues.prepare(self.service, course_id, self.exercise_id, settings))

    def resume(self) -> None:
        """Go on with a league the service stopped in the middle of (a restart), and
        look for scheduled leagues from now on."""
        for league_id in leagues.playing(self.service)[-1:]:
            self.start(league_id)
        threading.Thread(target=self._watch, name="league-schedule", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_SECONDS):
            try:
                for course_id, _, settings in leagues.due(self.service)[:1]:
                    self.play_now(course_id, settings)
            except Exception:  # the database went away: look again later
                log.exception("could not look for scheduled leagues")

    def wait(self, seconds: float | None = None) -> None:
        """Until the league playing now ends (the service's stop, and tests)."""
        if self._thread is not None:
            self._thread.join(seconds)

    # -- the staff's ---------------------------------------------------------------------

    async def instructor(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        standing = await run_in_threadpool(leagues.standing, self.service, scope.course.id,
                                           self.exercise_id)
        where = await run_in_threadpool(self.service.access.zone, scope.course.id)
        return self.web.course_page(scope, "leaderboard.html", standing=standing, staff=True,
                                    rating_rule=league.RATING, where=where,
                                    config=handin.config(), playing=self.playing(),
                                    saved=SAVED.get(request.query_params.get("saved", "")),
                                    games_link=lambda game: f"{scope.base}/league/games/"
                                                            f"{game.id}")

    async def play(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        back = f"{scope.base}/league"
        where = await run_in_threadpool(self.service.access.zone, scope.course.id)
        try:
            config = handin.config(**{field: kind(str(form.get(field)).strip())
                                      for field, kind in (("seed", int), ("openings", int),
                                                          ("cpu_seconds", float))
                                      if str(form.get(field) or "").strip()})
            at = forms.picked(form, "starts_at", where)
        except (ValueError, BadConfig):
            return self.web.message("Not played", "Give the seed and the openings as whole "
                                    "numbers (1 opening or more), the CPU time a move as "
                                    "seconds above 0, and a time to play at as a date and a "
                                    f"time in the course's zone ({where.key}), or none: now.",
                                    400, back)
        said = (f"seed {config.settings.seed}, {config.settings.openings} opening(s), "
                f"{config.settings.limits.cpu_seconds:g} s a move")
        if at is not None and at > self.service.now():
            await run_in_threadpool(leagues.schedule, self.service, scope.course.id,
                                    self.exercise_id, config.settings, at)
            await run_in_threadpool(self.service.access.audited, scope.course.id, scope.staff,
                                    "league scheduled", self.exercise_id,
                                    f"{said}, at {when(at, where)}")
            return RedirectResponse(f"{back}?saved=scheduled", status_code=303)
        if not await run_in_threadpool(self.play_now, scope.course.id, config.settings):
            return self.web.message("Not played", "A league is being played now: play again "
                                    "once it is done.", 409, back)
        await run_in_threadpool(self.service.access.audited, scope.course.id, scope.staff,
                                "league played", self.exercise_id, said)
        return RedirectResponse(f"{back}?saved=playing", status_code=303)

    async def shown(self, request: Request) -> Response:
        scope, form = await self.web.scope_form(request, "manage")
        back = f"{scope.base}/league"
        shown = bool(form.get("shown"))
        if not await run_in_threadpool(leagues.show, self.service, scope.course.id,
                                       self.exercise_id, shown):
            return self.web.message("Nothing to show", "No league has been played yet.", 409,
                                    back)
        await run_in_threadpool(self.service.access.audited, scope.course.id, scope.staff,
                                "league shown" if shown else "league hidden", self.exercise_id)
        return RedirectResponse(f"{back}?saved={'shown' if shown else 'hidden'}",
                                status_code=303)

    async def instructor_student(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        standing = await run_in_threadpool(leagues.standing, self.service, scope.course.id,
                                           self.exercise_id)
        student_id = request.path_params["student"]
        if standing is None or student_id not in standing.names:
            raise HTTPException(404)
        return self.web.course_page(scope, "leaderboard_student.html", standing=standing,
                                    student_id=student_id, back=f"{scope.base}/league",
                                    games_link=lambda game: f"{scope.base}/league/games/"
                                                            f"{game.id}")

    async def instructor_game(self, request: Request) -> Response:
        scope = await self.web.scope(request)
        found = await run_in_threadpool(leagues.game, self.service, scope.course.id,
                                        request.path_params["game"])
        if found is None:
            raise HTTPException(404)
        return self.replay(found, f"{scope.base}/league")

    # -- the students' ---------------------------------------------------------------

    async def student_page(self, request: Request) -> Response:
        student = await self.web.student(request)
        back = f"/s/{request.path_params['token']}"
        standing = await run_in_threadpool(leagues.standing, self.service, student.course_id,
                                           self.exercise_id)
        if standing is None or not standing.league.shown:
            return self.web.message("The league", "Your instructor has not opened the "
                                    "league's leaderboard yet.", 200, back)
        where = await run_in_threadpool(self.service.access.zone, student.course_id)
        return self.web.page("leaderboard.html", standing=standing, staff=False,
                             rating_rule=league.RATING, where=where,
                             own=student.id, back=back, playing=self.playing(),
                             games_link=lambda game: f"{back}/league/games/{game.id}")

    async def student_game(self, request: Request) -> Response:
        student = await self.web.student(request)
        found = await run_in_threadpool(leagues.game, self.service, student.course_id,
                                        request.path_params["game"])
        # Only the student's own games, and only while the instructor shows the league.
        if found is None or student.id not in (found[0].first_id, found[0].second_id) or \
                not await run_in_threadpool(leagues.shown_league, self.service,
                                            found[0].league_id):
            raise HTTPException(404)
        row, played = found
        own = played.names[0 if row.first_id == student.id else 1]
        return self.replay(found, f"/s/{request.path_params['token']}/league", own)

    def replay(self, found: tuple[LeagueGame, Game], back: str,
               own: str | None = None) -> Response:
        """A game's page; what the agents printed, ``own``'s alone where given (a
        student sees nothing another's agent printed)."""
        _, played = found
        printed = {name: text for name, text in played.output.items()
                   if own is None or name == own}
        return self.web.page("game.html", game=played, frames=leagues.frames(played),
                             result=result(played), back=back, marks=leagues.MARKS,
                             printed=printed)
