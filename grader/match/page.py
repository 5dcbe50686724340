"""The league's pages, in the style of batch's summary: a leaderboard, and a
page a student with each of their games, replayed move by move.

Students' ids and what their agents printed are theirs: every string is
escaped. The pages load nothing, as batch's summary page does not.
"""

import html
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from urllib.parse import quote

from grader.batch.page import document
from grader.games.knights.rules import new_board
from grader.match.boards import svg, words
from grader.match.grading import Config
from grader.match.league import RATING, Row, head_to_head, is_fault
from grader.match.referee import Game, describe, replay

STUDENTS = "students"  # the folder of the students' pages


def _e(value: object) -> str:
    return html.escape(str(value))


def _page_name(student: str) -> str:
    return quote(student, safe="") + ".html"


def leaderboard(config: Config, rows: Sequence[Row], games: Sequence[Game]) -> str:
    settings = config.settings
    cells = "".join(
        f'<tr><td class="num">{rank}</td>'
        f'<td><a href="{STUDENTS}/{_e(quote(_page_name(row.name)))}">{_e(row.name)}</a></td>'
        f'<td class="num">{row.ordinal:.2f}</td><td class="num">{row.mu:.2f} '
        f'\u00b1 {row.sigma:.2f}</td><td class="num">{row.games}</td>'
        f'<td class="num">{row.wins}</td><td class="num">{row.win_rate:.0%}</td>'
        f'<td class="num">{row.losses}</td>'
        f'<td class="num">{row.faults}</td></tr>'
        for rank, row in enumerate(rows, 1))
    body = f"""<header>
<h1>{_e(config.title)}: the league</h1>
<p class="meta">{len(rows)} agents, round robin, {len(games)} games of {_e(settings.variant)}
({2 * settings.openings} a pairing: {settings.openings} openings from both sides), seed
{settings.seed}, {settings.limits.cpu_seconds:g} s of CPU time a move.</p>
<p>Sorted by rating, mu - 3 sigma: {_e(RATING)}</p>
</header>
<section>
<table id="leaderboard">
<thead><tr><th class="num">rank</th><th>student</th><th class="num">rating</th>
<th class="num">mu \u00b1 sigma</th><th class="num">games</th><th class="num">wins</th>
<th class="num">win rate</th><th class="num">losses</th>
<th class="num">lost by a fault</th></tr></thead>
<tbody>{cells}</tbody>
</table>
</section>
{_head_to_head(rows, games)}"""
    return document(f"{config.title}: the league", body)


def _head_to_head(rows: Sequence[Row], games: Sequence[Game]) -> str:
    """Each agent's wins and losses against each other one, by rank."""
    names = [row.name for row in rows]
    head = head_to_head(names, games)
    columns = "".join(f'<th class="num"><abbr title="{_e(n)}">#{i}</abbr></th>'
                      for i, n in enumerate(names, 1))
    lines = "".join(
        f'<tr><th scope="row">#{i} {_e(name)}</th>' + "".join(
            '<td class="num">-</td>' if other == name else
            f'<td class="num">{head[name][other][0]}-{head[name][other][1]}</td>'
            for other in names) + "</tr>"
        for i, name in enumerate(names, 1))
    return f"""<section><h2>Head to head</h2>
<table id="head-to-head"><caption>Each row's wins and losses against each column's agent
</caption><thead><tr><td></td>{columns}</tr></thead><tbody>{lines}</tbody></table></section>"""


def pictures(game: Game) -> str:
    """The game's boards drawn, one a move, the last move outlined, with their words."""
    state, shown = new_board(game.variant), []
    for number, ply in enumerate(game.plies, 1):
        state = state.forecast_move(ply.move)
        said = f"{describe(game, number, ply)}: {words(state, ply.move)}"
        shown.append(f"<figure>{svg(state, ply.move, said)}<figcaption>{_e(said)}"
                     "</figcaption></figure>")
    return "".join(shown)


def student_page(config: Config, name: str, games: Sequence[Game]) -> str:
    items = []
    for game in (g for g in games if name in g.names):
        seat = game.names.index(name)
        result = ("no result" if game.winner is None
                  else "won" if game.winner == seat else "lost")
        fault = " (a fault)" if result == "lost" and is_fault(game) else ""
        printed = game.output.get(name)
        shown = f"<p class=\"aside\">printed:</p><pre>{_e(printed)}</pre>" if printed else ""
        items.append(f"""<details><summary>{_e(game.id)}: {result}{fault}, against
{_e(game.names[seat ^ 1])}, as player {seat + 1}: {_e(game.reason)}</summary>
{pictures(game)}<details><summary>the game as text</summary>
<pre>{_e(replay(game))}</pre></details>{shown}</details>""")
    body = f"""<header><h1>{_e(name)} <span class="id">{_e(config.title)}</span></h1>
<p class="meta"><a href="../index.html">the leaderboard</a></p></header>
<section>{"".join(items) or '<p class="note">No games.</p>'}</section>"""
    return document(f"{name}: league games", body)


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
