"""The agent exercise's parts that need no sandbox: the games, the messages,
the statistics, and tournaments of trusted agents played in the referee's process."""

import json
import time
import tomllib

import pytest

from grader import grading as seam
from grader import report
from grader.contracts import agent as contract
from grader.contracts import protocol
from grader.exercises import Opponent
from grader.games import knights
from grader.games.isolation.rules import GameState
from grader.games.knights.rules import Board, board_from_data, new_board, to_data
from grader.match import baselines, handin, league, points, referee, tournament
from grader.match.config import Config
from grader.match.config import load as load_config
from grader.match.player import Answer, Deadline, InProcessAgent, Limits, ProcessAgent, Spent
from grader.sandbox.local import LocalSandbox

SETTINGS = tournament.Settings("knights", seed=5, openings=2, limits=Limits(0.2, 10))


def test_a_knight_jumps_to_open_cells_only():
    state = knights.play(knights.play(knights.start(), (0, 0)), (6, 6))
    assert sorted(knights.legal_moves(state)) == [(1, 2), (2, 1)]
    assert sorted(state.get_legal_moves(1)) == [(4, 5), (5, 4)]  # the other player's
    state = knights.play(state, (1, 2))
    assert (1, 2) not in state.open_cells() and state.location(0) == (1, 2)
    assert state.player() == 1 and state.opponent() == 0


def test_the_first_move_of_each_player_goes_anywhere_open():
    start = knights.start()
    assert len(knights.legal_moves(start)) == 49
    assert len(knights.legal_moves(knights.play(start, (3, 3)))) == 48


def test_queen_isolation_is_the_lessons_rules_on_a_larger_board():
    board, lesson = new_board("queens"), GameState(5, 5, ())
    for move in [(0, 0), (4, 4), (0, 3), (2, 2)]:
        assert sorted(board.get_legal_moves()) == sorted(lesson.get_legal_moves())
        board, lesson = board.forecast_move(move), lesson.forecast_move(move)
    with pytest.raises(RuntimeError):
        board.forecast_move((0, 0))  # closed for good


def test_a_board_crosses_as_plain_data_and_comes_back_whole():
    state = knights.play(knights.play(knights.start(), (2, 3)), (4, 4))
    again = board_from_data("knights", json.loads(json.dumps(to_data(state))))
    assert knights.key(again) == knights.key(state)
    assert type(again) is type(state) and again.get_legal_moves() == state.get_legal_moves()


def test_a_finished_game_is_lost_by_the_player_to_move():
    data = {"width": 7, "height": 7, "board": [[1] * 7 for _ in range(7)], "parity": 0,
            "locations": [[0, 0], [6, 6]]}
    data["board"][4][5] = 0  # open to player 2 only
    state = board_from_data("knights", data)
    assert knights.terminal(state) and state.get_legal_moves(1) == [(4, 5)]
    assert (knights.utility(state, 0), knights.utility(state, 1)) == (-1, 1)


@pytest.mark.parametrize("value", [[1, 2], (1, 2, 3), (True, 2), (1.0, 2), "12", None,
                                   (1 << 70, 2)])
def test_only_a_tuple_of_two_ints_is_a_move(value):
    reply = contract.read_reply(contract.answer(move=protocol.encode(value)))
    assert reply.move is None and reply.shown


@pytest.mark.parametrize("line", [b"", b"[]", b"{}", b"not json", b'{"move": {"bad": 1}}'])
def test_a_reply_the_referee_cant_read_is_refused(line):
    with pytest.raises(protocol.BadMessage):
        contract.read_reply(line)


def test_wilson_interval():
    low, high = points.wilson(8, 10)
    assert (round(low, 3), round(high, 3)) == (0.49, 0.943)
    assert points.wilson(0, 0) == (0.0, 1.0)
    assert points.wilson(10, 10)[1] == pytest.approx(1) and points.wilson(0, 10)[0] == 0


def _standing(opponent, wins, games):
    played = tuple(referee.Game(str(i), "knights", 0, ("a", opponent.name),
                                winner=0 if i < wins else 1) for i in range(games))
    return points.Standing(opponent, played, wins)


def test_points_come_from_the_interval_not_the_rate():
    opponent = Opponent("x", "random", win_rate=0.5, points=4)
    # 16 of 20: the lower bound (58%) clears 50%: whole; 4 of 20: the upper (42%) is below.
    assert _standing(opponent, 16, 20).points == 4.0 and _standing(opponent, 16, 20).settled
    assert _standing(opponent, 4, 20).points == 0.0 and _standing(opponent, 4, 20).settled
    # 1 of 2 against alpha-beta is no 5 points: the interval is most of [0, 1].
    between = _standing(opponent, 1, 2)
    low, high = between.interval
    assert between.points == round(4 * (high - 0.5) / (high - low), 2)
    assert 0 < between.points < 4 and not between.settled


def test_a_random_mover_earns_at_most_one_point_in_ten_at_the_exercise_settings():
    """A random mover's results as bench/random_mover.py measured them in full
    gradings at the exercise's settings (each pairing stopped where settled, after
    6 games at the least): half its games against random, next to none against
    the searches."""
    config = load_config()
    assert sum(o.points for o in config.opponents) == 10
    for shown in ({"random": (5, 10), "minimax": (0, 6), "alphabeta": (0, 12)},
                  {"random": (2, 6), "minimax": (1, 6), "alphabeta": (0, 12)}):
        table = [_standing(o, *shown[o.baseline]) for o in config.opponents]
        assert all(s.settled for s in table) and sum(s.points for s in table) == 0
    # two lucky games of two settle nothing: 2 of 2 "shows" 34%, above alpha-beta's 25%
    lucky = _standing(next(o for o in config.opponents if o.name == "alphabeta"), 2, 2)
    assert lucky.interval[0] > 0.25 and not lucky.settled


def test_a_strong_result_earns_every_point_at_the_exercise_settings():
    """What a strong agent shows: every game against random and minimax, one in two
    against alpha-beta (the second mover's games), each settled before the end."""
    config = load_config()
    shown = {"random": (16, 16), "minimax": (8, 8), "alphabeta": (6, 12)}
    table = [_standing(o, *shown[o.baseline]) for o in config.opponents]
    assert sum(s.points for s in table) == 10 and all(s.settled for s in table)
    assert all(games <= 2 * config.settings.openings for _, games in shown.values())


def test_openings_are_fixed_by_the_seed_and_played_from_both_sides():
    assert tournament.openings("knights", 1, 4) == tournament.openings("knights", 1, 4)
    assert tournament.openings("knights", 1, 4) != tournament.openings("knights", 2, 4)
    ids = tournament.game_ids("a", "b", 2)
    assert [(first, opening) for _, first, _, opening in ids] == [
        ("a", 0), ("b", 0), ("a", 1), ("b", 1)]


def make(name):
    return InProcessAgent(name, baselines.BASELINES[name])


def test_a_tournament_is_resumed_and_repeated_from_its_seed(tmp_path):
    store = tournament.Store(tmp_path / "games.jsonl", SETTINGS)
    first = tournament.play([("random", "minimax")], make, SETTINGS, store)
    assert len(first) == 4 and {g.names for g in first} == {("random", "minimax"),
                                                            ("minimax", "random")}
    started = []
    again = tournament.play([("random", "minimax")],
                            lambda name: started.append(name) or make(name), SETTINGS,
                            tournament.Store(tmp_path / "games.jsonl", SETTINGS))
    assert started == [] and [g.to_json() for g in again] == [g.to_json() for g in first]
    fresh = tournament.play([("random", "minimax")], make, SETTINGS,
                            tournament.Store(tmp_path / "other.jsonl", SETTINGS))
    # minimax searches to a fixed depth and random is seeded: the same games
    assert [[p.move for p in g.plies] for g in fresh] == [[p.move for p in g.plies]
                                                          for g in first]


def test_a_store_of_other_settings_is_refused_and_a_cut_line_played_again(tmp_path):
    path = tmp_path / "games.jsonl"
    tournament.play([("random", "minimax")], make, SETTINGS, tournament.Store(path, SETTINGS))
    other = tournament.Settings("knights", seed=6, openings=2, limits=SETTINGS.limits)
    with pytest.raises(tournament.StoreMismatch):
        tournament.Store(path, other)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1] + [lines[-1][:40]]) + "\n")
    assert len(tournament.Store(path, SETTINGS).games) == 3


def test_the_replay_draws_every_move_with_depth_and_time():
    game = referee.play("g", "knights", [(0, 0), (6, 6)], (make("alphabeta"), make("random")),
                        Limits(0.1, 10), seed=1)
    text = referee.replay(game)
    assert text.count("x=0 x=1") == len(game.plies) + 1
    assert "the opening, placed by the referee" in text and "searched to depth" in text
    assert text.endswith(game.reason)


def test_ratings_come_from_the_games_in_order():
    games = [referee.Game(str(i), "knights", 0, ("a", "b") if i % 2 else ("b", "a"),
                          winner=0 if i % 2 else 1, reason="b had no move left")
             for i in range(6)]
    rows = league.table(["a", "b", "c"], games)
    assert [row.name for row in rows] == ["a", "c", "b"]
    assert rows[0].wins == 6 and rows[0].games == 6 and rows[2].faults == 0
    assert league.table(["a", "b", "c"], games) == rows


def test_time_left_counts_cpu_time_only_never_the_wall_clock():
    used = [0.0]
    time_left = contract.countdown(1.0, clock=lambda: used[0])
    time.sleep(0.2)  # the wall clock runs (a busy machine), the CPU clock does not
    assert time_left() == pytest.approx(1000 * (1 - contract.MARGIN))
    used[0] = 0.5
    assert time_left() == pytest.approx(1000 * (0.5 - contract.MARGIN))


JUDGED = Limits(1.0, 10)  # a wall limit of 10 s of the agent's own, a backstop at 30 s


@pytest.mark.parametrize(("spent", "why", "charged"), [
    (Spent(0.9, 25.0, 24.0), None, None),  # 1 s of its own: waiting is not its doing
    (Spent(1.1, 5.0, 0.0), "ran out of time: 1.10 s of CPU time, the limit is 1 s", True),
    (Spent(0.1, 10.5, 0.2), "ran out of time: 10.30 s of its own on the wall clock", True),
    (Spent(0.1, 10.5, None), "ran out of time: 10.50 s of its own", True),  # none known
    (Spent(0.5, 31.0, 25.0), "was stopped by the backstop, 31.0 s on the wall clock", False),
])
def test_a_move_is_charged_for_the_agents_own_time_only(spent, why, charged):
    over = ProcessAgent("a", [], {}, ".")._over(spent, JUDGED)
    assert (over is None) == (why is None)
    if over is not None:
        assert over[0].startswith(why) and over[1] == charged, over


def test_past_the_matchs_deadline_a_move_ends_and_the_games_left_are_lost():
    agent = ProcessAgent("a", [], {}, ".")
    agent.deadline = Deadline(5.0)
    agent.deadline.spend(4.0)
    assert agent._over(Spent(0.5, 0.8, 0.0), JUDGED) is None
    why, charged = agent._over(Spent(0.5, 1.5, 0.2), JUDGED)
    assert why.startswith("ran past the match's deadline") and charged
    agent.deadline.spend(1.5)
    start = agent.new_game("knights", 0, 1)  # no process is started for it
    assert start.fault.startswith("ran past the match's deadline") and agent.process is None


class Starved:
    """An agent whose moves the backstop ends, uncharged, ``times`` times (then it
    plays as the weak agent does)."""

    def __init__(self, name, times):
        self.name, self.times = name, times

    def new_game(self, variant, player, seed):
        return Answer(contract.Reply(), 0.0, 0.0)

    def move(self, state, limits):
        if self.times:
            self.times -= 1
            return Answer(contract.Reply(), 0.1, 40.0, "was stopped by the backstop",
                          waited=39.0, charged=False)
        move = state.get_legal_moves()[0]
        return Answer(contract.Reply(move=move, shown=str(move)), 0.0, 0.0)

    def output(self):
        return ""

    def close(self):
        pass


@pytest.mark.parametrize("times", [1, tournament.RETRIES + 1])
def test_a_game_the_backstop_ended_uncharged_is_played_again_then_not_counted(tmp_path, times):
    settings = tournament.Settings("knights", seed=5, openings=1, limits=Limits(0.2, 10))
    starved = Starved("agent", times)
    games = tournament.play_pairing(
        "agent", "random", lambda who: starved if who == "agent" else make(who), settings,
        tournament.Store(tmp_path / "games.jsonl", settings))
    void = [g for g in games if g.void]
    if times > tournament.RETRIES:  # the first game, each time it was played
        assert [g.id for g in void] == ["agent v random #1"] and void[0].winner is None
    else:
        assert void == []
    config = Config("t", "agent.py", "Agent", settings,
                            (Opponent("random", "random", 0.5, 2),))
    [standing] = points.standings("agent", config, games)
    assert len(standing.games) == 2 - len(void) and standing.void == tuple(void)
    assert ("not played to their end" in points.to_text("agent", config, [standing])) == \
        bool(void)


def test_a_hand_in_with_a_game_never_played_to_its_end_is_a_grader_error(tmp_path,
                                                                        monkeypatch):
    """The machine's doing, not the agent's: no points charged, listed to regrade."""
    config = handin.config(openings=1)
    starved = Starved("agent", tournament.RETRIES + 1)
    games = tournament.play_pairing(
        "agent", "random", lambda who: starved if who == "agent" else make(who),
        config.settings, tournament.Store(tmp_path / "games.jsonl", config.settings))
    played = points.standings("agent", config, games)
    monkeypatch.setattr(handin.points, "grade", lambda *args, **options: played)
    exercise = handin.exercise()
    made = seam.grade_taken(exercise, {"agent.py": b"x"}, LocalSandbox(), exercise.limits)
    assert made["status"] == "error" and made["score"] is None  # nothing charged
    assert report.overloaded(made)  # graded again by every front end, as a starved run
    assert "could not be played to their end" in made["message"]


def test_a_matchs_deadline_is_sized_from_the_references_own_time_a_game():
    with open(handin.CONFIG, "rb") as handle:
        match = tomllib.load(handle)["match"]
    per_game = match["deadline_factor"] * match["reference_game_seconds"]
    games = 2 * match["openings"] * 3  # three opponents
    assert handin.config().deadline_seconds == pytest.approx(
        per_game * match["cpu_seconds"] * games, abs=0.05)
    # scaled with the CPU limit and the games played
    assert handin.config(openings=1, cpu_seconds=0.5).deadline_seconds == pytest.approx(
        per_game * 0.5 * 6)


def _settles(agent, opponent, threshold, settings):
    against = Opponent(opponent, opponent, win_rate=threshold, points=3)
    return lambda games: points.standing(agent, against, games).settled, against


@pytest.mark.parametrize(("agent", "opponent", "threshold", "earned"), [
    ("minimax", "random", 0.6, 3.0),  # clearly stronger: 19 games in 20, settled early
    ("random", "minimax", 0.65, 0.0),  # clearly weaker: no game, settled at 4
])
def test_a_pairing_stops_once_its_games_settle_the_points(tmp_path, agent, opponent,
                                                          threshold, earned):
    settings = tournament.Settings("knights", seed=5, openings=10, limits=Limits(0.2, 10))
    decided, against = _settles(agent, opponent, threshold, settings)
    store = tournament.Store(tmp_path / "games.jsonl", settings)
    games = tournament.play([(agent, opponent)], make, settings, store, jobs=2,
                            decided=decided)
    standing = points.standing(agent, against, games)
    assert standing.points == earned and len(games) < 20 and len(games) % 2 == 0
    # the first opening that settles it, whatever was played beside it
    assert not decided(games[:-2]) and decided(games)
    again = tournament.play([(agent, opponent)], make, settings,
                            tournament.Store(tmp_path / "games.jsonl", settings),
                            decided=decided)
    assert [g.id for g in again] == [g.id for g in games]


class Someone:
    """A player object, as isolation.Board's players are."""


def test_the_board_speaks_isolation_boards_names():
    me, other = Someone(), Someone()
    board = board_from_data("knights", to_data(knights.play(knights.start(), (0, 0))))
    board.seated((me, other))
    assert board.active_player is other and board.inactive_player is me
    assert board.get_opponent(me) is other and board.get_opponent(other) is me
    assert board.get_player_location(me) == (0, 0) and board.get_player_location(other) is None
    assert sorted(board.get_legal_moves(me)) == [(1, 2), (2, 1)]
    assert len(board.get_legal_moves()) == 48 == len(board.get_blank_spaces())
    assert board.move_count == 1 and (board.width, board.height) == (7, 7)
    child = board.forecast_move((1, 2))
    assert child.active_player is me and child.move_count == 2 and board.move_count == 1
    assert board.copy().hash() == board.hash() != child.hash()
    assert board.utility(me) == 0 and not board.is_winner(me) and not board.is_loser(me)
    with pytest.raises(ValueError):
        board.get_legal_moves(Someone())


def test_isolation_boards_ends_and_its_constructor():
    me, other = Someone(), Someone()
    board = Board(me, other)  # as isolation.Board is made: two players, 7 x 7
    for move in [(0, 0), (6, 6)]:
        board.apply_move(move)
    assert board.active_player is me and board.move_count == 2
    for x, y in board.get_legal_moves(me):  # close my two cells: I have no move
        board._board[x][y] = 1
    assert board.is_loser(me) and board.is_winner(other) and not board.is_winner(me)
    assert board.utility(me) == float("-inf") and board.utility(other) == float("inf")
