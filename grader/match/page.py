"""The league's pages, written to disk as batch's are (grader.pages' offline
shell): a leaderboard, a page a student listing their games, and a page a
game, replayed move by move.

A replay (a picture a move) weighs about 100 KB, so no list holds one: the
leaderboard and a student's page link each game's own page, and stay small
for a class of any size (a class of 30 at ten openings plays 8,700 games).

Students' ids and what their agents printed are theirs: the templates escape
every string but the pictures, which are the grader's own (grader.match.boards).
"""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

from grader import pages
from grader.games.knights.rules import new_board
from grader.match.boards import svg, words
from grader.match.config import Config
from grader.match.league import RATING, Row, head_to_head, is_fault
from grader.match.referee import Game, describe, replay, result

STUDENTS = "students"  # the folder of the students' pages
GAMES = "games"  # the folder of the games' pages
TEMPLATES = pages.environment(__package__)


def _page_name(student: str) -> str:
    return quote(student, safe="") + ".html"


def game_file(game: Game) -> str:
    """A game's page's name: short and the same in every run (a game's id holds
    both students' names, which may be long)."""
    return hashlib.sha256(game.id.encode()).hexdigest()[:20] + ".html"


def leaderboard(config: Config, rows: Sequence[Row], games: Sequence[Game]) -> str:
    ranked = [(row, f"{STUDENTS}/{quote(_page_name(row.name))}") for row in rows]
    return pages.offline(TEMPLATES, "league.html", title=f"{config.title}: the league",
                         config=config, rows=ranked, games=games, rating=RATING,
                         head=head_to_head([row.name for row in rows], games))


def pictures(game: Game) -> list[tuple[Markup, str]]:
    """The game's boards drawn, one a move, the last move outlined, with their words."""
    state, shown = new_board(game.variant), []
    for number, ply in enumerate(game.plies, 1):
        state = state.forecast_move(ply.move)
        said = f"{describe(game, number, ply)}: {words(state, ply.move)}"
        shown.append((Markup(svg(state, ply.move, said)), said))  # noqa: S704
    return shown


def _summary(name: str, game: Game) -> dict[str, Any]:
    """One of ``name``'s games as a row of their page: its result for them, and its link."""
    seat = game.names.index(name)
    outcome = "no result" if game.winner is None else "won" if game.winner == seat else "lost"
    fault = " (a fault)" if outcome == "lost" and is_fault(game) else ""
    return {"id": game.id, "against": game.names[seat ^ 1], "seat": seat + 1,
            "result": outcome + fault, "reason": game.reason,
            "href": f"../{GAMES}/{game_file(game)}"}


def student_page(config: Config, name: str, games: Sequence[Game]) -> str:
    return pages.offline(TEMPLATES, "league_student.html", title=f"{name}: league games",
                         name=name, config=config,
                         games=[_summary(name, game) for game in games if name in game.names])


def game_page(config: Config, game: Game) -> str:
    """One game's replay: a picture a move, the game as text, what each agent printed."""
    return pages.offline(TEMPLATES, "league_game.html", title=f"Game {game.id}",
                         config=config, game=game, result=result(game),
                         pictures=pictures(game), text=replay(game),
                         students=[(name, f"../{STUDENTS}/{quote(_page_name(name))}")
                                   for name in game.names])


def write(outdir: Path, config: Config, rows: Sequence[Row], games: Sequence[Game]) -> Path:
    """index.html, leaderboard.json, a page a student and a page a game in ``outdir``
    (the pages of games no longer played removed); the index's path."""
    for folder in (STUDENTS, GAMES):
        (outdir / folder).mkdir(parents=True, exist_ok=True)
    for row in rows:
        (outdir / STUDENTS / _page_name(row.name)).write_text(
            student_page(config, row.name, games), encoding="utf-8")
    written = set()
    for game in games:
        written.add(game_file(game))
        (outdir / GAMES / game_file(game)).write_text(game_page(config, game),
                                                      encoding="utf-8")
    for stale in (outdir / GAMES).glob("*.html"):
        if stale.name not in written:
            stale.unlink()
    (outdir / "leaderboard.json").write_text(
        json.dumps([asdict(row) for row in rows], indent=1), encoding="utf-8")
    index = outdir / "index.html"
    index.write_text(leaderboard(config, rows, games), encoding="utf-8")
    return index
