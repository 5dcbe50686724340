"""The league's pages, written to disk as batch's are (grader.pages' offline
shell): a leaderboard, and a page a student with each of their games, replayed
move by move.

Students' ids and what their agents printed are theirs: the templates escape
every string but the pictures, which are the grader's own (grader.match.boards).
"""

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
from grader.match.referee import Game, describe, replay

STUDENTS = "students"  # the folder of the students' pages
TEMPLATES = pages.environment(__package__)


def _page_name(student: str) -> str:
    return quote(student, safe="") + ".html"


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


def _game(name: str, game: Game) -> dict[str, Any]:
    """One of ``name``'s games as their page shows it."""
    seat = game.names.index(name)
    result = "no result" if game.winner is None else "won" if game.winner == seat else "lost"
    fault = " (a fault)" if result == "lost" and is_fault(game) else ""
    said = (f"{game.id}: {result}{fault}, against {game.names[seat ^ 1]}, as player "
            f"{seat + 1}: {game.reason}")
    return {"said": said, "pictures": pictures(game), "text": replay(game),
            "printed": game.output.get(name)}


def student_page(config: Config, name: str, games: Sequence[Game]) -> str:
    return pages.offline(TEMPLATES, "league_student.html", title=f"{name}: league games",
                         name=name, config=config,
                         games=[_game(name, game) for game in games if name in game.names])


def write(outdir: Path, config: Config, rows: Sequence[Row], games: Sequence[Game]) -> Path:
    """index.html, leaderboard.json and a page a student in ``outdir``; the index's path."""
    (outdir / STUDENTS).mkdir(parents=True, exist_ok=True)
    for row in rows:
        (outdir / STUDENTS / _page_name(row.name)).write_text(
            student_page(config, row.name, games), encoding="utf-8")
    (outdir / "leaderboard.json").write_text(
        json.dumps([asdict(row) for row in rows], indent=1), encoding="utf-8")
    index = outdir / "index.html"
    index.write_text(leaderboard(config, rows, games), encoding="utf-8")
    return index
