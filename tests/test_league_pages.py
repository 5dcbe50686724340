"""The league's pages written by ``minimax-grader league``: small for a class of
30 at the exercise's openings (the replays on pages of their own, linked), and
every game's replay there, a picture a move."""

import random
import re
from pathlib import Path

from grader.games.knights.rules import new_board
from grader.match import league, page
from grader.match.config import load as load_config
from grader.match.referee import Game, Ply
from grader.match.tournament import game_ids

MEGABYTE = 1 << 20


def played(game_id: str, names: tuple[str, str], draw: random.Random) -> Game:
    """A game of random moves to its end, as the referee keeps one."""
    state, plies = new_board("knights"), []
    while legal := state.get_legal_moves():
        move = draw.choice(legal)
        plies.append(Ply(state.player(), move, len(plies) > 1, 0.5, 0.6, 7))
        state = state.forecast_move(move)
    loser = state.player()
    return Game(game_id, "knights", 1, names, plies, loser ^ 1,
                f"{names[loser]} had no move left", output={names[0]: "thinking\n" * 20})


def a_class(students: int, openings: int, moves: bool) -> tuple[list[str], list[Game]]:
    """A round robin of ``students`` with every game ended; with the moves of each
    (slow for thousands) or only its result (all the leaderboard and the students'
    pages show)."""
    names = [f"student-{number:02d} of the class of 2026" for number in range(students)]
    draw, games = random.Random(7), []
    for first, second in ((a, b) for i, a in enumerate(names) for b in names[i + 1:]):
        for game_id, one, other, _ in game_ids(first, second, openings):
            if moves:
                games.append(played(game_id, (one, other), draw))
            else:
                winner = draw.randrange(2)
                games.append(Game(game_id, "knights", 1, (one, other), winner=winner,
                                  reason=f"{(one, other)[winner ^ 1]} had no move left"))
    return names, games


def test_a_class_of_30_gets_pages_under_a_megabyte_at_the_exercises_openings():
    config = load_config()
    names, games = a_class(30, config.settings.openings, moves=False)
    assert len(games) == 30 * 29 // 2 * 2 * config.settings.openings
    rows = league.table(names, games)
    board = page.leaderboard(config, rows, games)
    assert len(board.encode()) <= MEGABYTE
    assert board.count('href="students/') == 30
    for name in names[:3]:
        own = page.student_page(config, name, games)
        assert len(own.encode()) <= MEGABYTE
        assert own.count('href="../games/') == 29 * 2 * config.settings.openings
        assert "<svg" not in own


def test_each_game_is_replayed_on_its_own_page_linked_from_both_players(tmp_path: Path):
    config = load_config()
    names, games = a_class(3, 1, moves=True)
    index = page.write(tmp_path, config, league.table(names, games), games)
    assert index == tmp_path / "index.html"
    pages = sorted((tmp_path / page.GAMES).iterdir())
    assert len(pages) == len(games) == 6
    for game in games:
        replay = (tmp_path / page.GAMES / page.game_file(game)).read_text()
        assert replay.count("<svg") == len(game.plies)
        assert f"move {len(game.plies)}: player" in replay and game.reason in replay
        assert "What " in replay and "thinking" in replay
        for name in game.names:
            own = (tmp_path / page.STUDENTS / f"{name.replace(' ', '%20')}.html").read_text()
            assert f'href="../games/{page.game_file(game)}"' in own
    links = re.findall(r'href="(students/[^"]+)"', index.read_text())
    assert sorted((tmp_path / link.replace("%2520", "%20")).exists() for link in links) == \
        [True] * 3


def test_a_game_no_longer_played_loses_its_page(tmp_path: Path):
    config = load_config()
    names, games = a_class(3, 1, moves=True)
    page.write(tmp_path, config, league.table(names, games), games)
    kept = [game for game in games if names[2] not in game.names]
    page.write(tmp_path, config, league.table(names[:2], kept), kept)
    assert sorted(p.name for p in (tmp_path / page.GAMES).iterdir()) == \
        sorted(page.game_file(game) for game in kept)
