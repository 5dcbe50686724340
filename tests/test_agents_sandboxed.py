"""Students' agents in their sandboxes (tests/agents/): each gets what it earns,
a fault costs the game it happens in and no more, and nothing outside the
agent's own folder can be reached. Limits are generous for a loaded machine;
only the slow and the sleepy agents meet them, by far."""

import errno
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import skip_loudly

from grader import intake
from grader.cli import main
from grader.contracts import agent as contract
from grader.games import knights
from grader.match import clock, handin, launch, points, referee, tournament
from grader.match.player import Deadline, Limits, ProcessAgent
from grader.sandbox import cgroups, local
from grader.sandbox.containers import LABEL, labels

AGENTS = Path(__file__).parent / "agents"
STRONG = Path(__file__).parents[1] / "solutions" / "agent" / "solution" / \
    "agent.py"
SETTINGS = tournament.Settings("knights", seed=3, openings=1, limits=Limits(1.0, 4))
OPENED = knights.play(knights.play(knights.start(), (0, 0)), (6, 6))  # each player placed


@pytest.fixture(autouse=True)
def sandboxed():
    if not local.is_boundary():
        if os.geteuid() == 0:
            skip_loudly("agents in bubblewrap", "bwrap is not usable here")


def pairing(tmp_path, name, opponent="random", source=None, settings=SETTINGS):
    def make(who):
        if who == name:
            return launch.student(who, source or AGENTS / f"{who}.py", "Agent")
        return launch.baseline(who)
    return tournament.play_pairing(name, opponent, make, settings,
                                   tournament.Store(tmp_path / "games.jsonl", settings))


def both_sides(agent, other):
    """Two games from one opening, ``agent`` first and then second; both closed after."""
    try:
        return [referee.play(str(i), "knights", [(0, 0), (6, 6)], seats, SETTINGS.limits, 1)
                for i, seats in enumerate([(agent, other), (other, agent)])]
    finally:
        agent.close()
        other.close()


@pytest.mark.parametrize(("name", "reason"), [
    ("slow", "ran out of time"),
    ("sleepy", "of its own on the wall clock (sleeping or blocking)"),
    ("crash", "crashed: its process ended (exit status 3)"),
    ("illegal", "returned a tuple (99, 99), which is no legal move"),
    ("listmove", "returned a list ["),
    ("flood", "printed more than 64 KiB in one game"),
    ("raiser", "raised SystemExit: pass"),
    ("forks", "raised BlockingIOError: [Errno 11]"),
    ("forfeit", "forfeited: returned (-1, -1) with legal moves left"),
    # where in the student's own file, innermost last; none of the grader's frames
    ("deep", "raised ValueError: no good move here (at agent.py, line 20, in get_move; then "
             "agent.py, line 5, in pick; then agent.py, line 10, in choose)"),
])
def test_a_fault_loses_that_game_from_either_side(tmp_path, name, reason):
    games = pairing(tmp_path, name)
    assert [g.loser() for g in games] == [name, name]
    for game in games:
        assert game.reason.startswith(name) and reason in game.reason, game.reason
        # each game reached the agent's turn: a fault in one did not cost the next
        assert any(p.agent for p in game.plies) or game.names[0] == name


def test_an_agent_written_for_isolation_board_in_several_files_plays_unmodified(tmp_path):
    """agent.py is one line importing the player from game_agent.py, which imports
    isolation and sample_players.py; the search checks time_left() and raises its own
    SearchTimeout, and its search_depth is a setting, never shown as a depth reached."""
    games = pairing(tmp_path, "aind", source=AGENTS / "aind")
    # Played to their ends without a fault (who wins against a random mover is the
    # game's business: a short search loses now and then).
    assert all(g.reason.endswith("had no move left") for g in games), [g.reason for g in games]
    assert all(any(p.agent and g.names[p.player] == "aind" for p in g.plies) for g in games)
    assert all(p.depth is None for g in games for p in g.plies)


def test_a_course_project_that_logs_at_import_imports_numpy_and_reads_private_state(tmp_path):
    """course/: agent.py subclasses the older CustomPlayer choosing alpha-beta; its
    module calls logging.basicConfig(filename=...) at import, writes in __init__
    and get_move, imports numpy and isolation.isolation, and its score asserts the
    board's private state (both versions) against the public methods: any of
    these failing is a fault, and loses the game."""
    pytest.importorskip("numpy")
    settings = tournament.Settings("knights", seed=5, openings=1, limits=Limits(0.3, 10))
    games = pairing(tmp_path, "course", source=AGENTS / "course", settings=settings)
    assert all(g.reason.endswith("had no move left") for g in games), [g.reason for g in games]
    assert all(any(p.agent and g.names[p.player] == "course" for p in g.plies) for g in games)


def test_an_agent_with_an_opening_book_and_a_helper_package_plays_and_lists_what_it_left(
        tmp_path):
    """booked/: book.json opened from the working folder, a helper package reading a
    CSV beside its module; the hand-in's course board copy is left out, and said."""
    shutil.copytree(AGENTS / "booked", tmp_path / "hand-in")
    (tmp_path / "hand-in" / "isolation").mkdir()
    (tmp_path / "hand-in" / "isolation" / "isolation.py").write_text("class Board: pass\n")
    taken = intake.take_modules(tmp_path / "hand-in", "agent.py")
    made = handin.grade(handin.exercise(), taken.files, local.LocalSandbox().layout, quick=True,
                        ignored=taken.ignored)
    assert made["submission"]["ignored"] == [
        "isolation/isolation.py: the course's own board: the grader's is used"]
    assert "could not start" not in made["message"] and "raised" not in made["output"]["text"]
    assert "bounded run: 2 of the exercise's 10 openings" in made["message"]


def test_an_import_of_a_module_the_sandbox_lacks_says_so_by_name(tmp_path):
    (tmp_path / "agent.py").write_text("import sklearn_not_here.tree\nclass Agent:\n    pass\n")
    made = handin.grade(handin.exercise(), {"agent.py": (tmp_path / "agent.py").read_bytes()},
                        local.LocalSandbox().layout)
    assert made["score"] == 0
    assert "'sklearn_not_here' is neither among the files handed in nor in the agent's " \
        "sandbox" in made["message"], made["message"]


@pytest.mark.parametrize("name", ["oldstyle", "writer"])
def test_the_older_signature_and_a_working_folder_of_its_own_each_game(tmp_path, name):
    settings = tournament.Settings("knights", seed=3, openings=2, limits=Limits(0.5, 10))
    games = pairing(tmp_path, name, settings=settings)
    assert all(g.reason.endswith("had no move left") for g in games), [g.reason for g in games]


def test_an_agent_that_cannot_start_is_one_error_not_a_fault_a_game(tmp_path):
    (tmp_path / "agent.py").write_text("class Agent:\n    def get_move(self, game)\n")
    files = {"agent.py": (tmp_path / "agent.py").read_bytes()}
    made = handin.grade(handin.exercise(), files, local.LocalSandbox().layout)
    assert made["status"] == "graded" and made["score"] == 0
    assert made["message"].startswith("Your agent could not start, so no game was played: "
                                      "SyntaxError") and "agent.py, line 2" in made["message"]
    assert all(t["message"] == "not played: the agent could not start" for t in made["tests"])
    (tmp_path / "agent.py").write_text("import game_agent\n")
    with pytest.raises(points.NoStart, match="ModuleNotFoundError: No module named "
                                              "'game_agent' \\(at agent.py, line 1"):
        points.started(launch.student("x", tmp_path / "agent.py", "Agent"), "knights")
    (tmp_path / "agent.py").write_text("class Player:\n    pass\n")
    with pytest.raises(points.NoStart, match="agent.py defines no Agent"):
        points.started(launch.student("x", tmp_path / "agent.py", "Agent"), "knights")


def test_a_crash_costs_one_game_and_the_agent_plays_the_next(tmp_path):
    games = pairing(tmp_path, "crash")
    for game in games:
        seat = game.names.index("crash")
        assert sum(1 for p in game.plies if p.agent and p.player == seat) == 1


def test_what_a_flood_printed_is_kept_capped(tmp_path):
    game = pairing(tmp_path, "flood")[0]
    assert game.output["flood"].startswith("spam") and len(game.output["flood"]) < 4096


def test_the_strong_agent_beats_the_weak_one_from_both_sides(tmp_path):
    def make(who):
        return launch.student(who, STRONG if who == "strong" else AGENTS / "weak.py", "Agent")
    settings = tournament.Settings("knights", seed=3, openings=1, limits=Limits(0.2, 10))
    games = tournament.play_pairing("strong", "weak", make, settings,
                                    tournament.Store(tmp_path / "g.jsonl", settings))
    assert [g.loser() for g in games] == ["weak"] * 2
    assert all(g.reason == "weak had no move left" for g in games)
    depths = [p.depth for g in games for p in g.plies if p.agent and g.names[p.player] == "strong"]
    assert depths and all(isinstance(d, int) and d >= 1 for d in depths)


def test_the_snoop_finds_nothing_of_the_referee_the_other_agent_or_the_network():
    if not local.is_boundary():
        skip_loudly("agents in bubblewrap", "bwrap is not usable here")
    games = both_sides(launch.student("snoop", AGENTS / "snoop.py", "Agent"),
                       launch.student("weak", AGENTS / "weak.py", "Agent"))
    assert all(g.reason.endswith("had no move left") for g in games), [g.reason for g in games]


def test_the_snoop_does_find_them_outside_the_sandbox(tmp_path):
    """The snoop's search works: as a plain process it sees the referee's files."""
    argv = launch._argv(str(AGENTS / "snoop.py"), "Agent")
    snoop = ProcessAgent("snoop", argv, launch._env(str(tmp_path)), str(tmp_path))
    other = launch.baseline("random")
    try:
        game = referee.play("g", "knights", [(0, 0), (6, 6)], (snoop, other), SETTINGS.limits, 1)
    finally:
        snoop.close()
        other.close()
    assert game.reason.startswith("snoop returned a tuple ('found'")


def test_match_grades_an_agent_against_the_baselines(capsys):
    assert main(["match", str(AGENTS / "weak.py"), "--openings", "1", "--cpu-seconds", "0.3",
                 "--format", "json", "--jobs", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["status"], report["bounded"]) == ("played", True)
    assert [o["name"] for o in report["opponents"]] == ["random", "minimax", "alphabeta"]
    assert all(o["games"] == 2 and 0 <= o["interval"][0] <= o["win_rate"] <= o["interval"][1]
               for o in report["opponents"])
    lost = sum(len(o["losses"]) for o in report["opponents"])
    assert (report["lost_game"] is None) == (lost == 0)
    assert report["points"] == round(sum(o["points"] for o in report["opponents"]), 2)


def test_match_json_of_an_agent_that_cannot_start_is_a_report_of_it(tmp_path, capsys):
    (tmp_path / "agent.py").write_text("import no_such_helper\nclass Agent:\n    pass\n")
    assert main(["match", str(tmp_path / "agent.py"), "--openings", "1", "--format",
                 "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    handin._match_validator().validate(report)
    assert (report["status"], report["points"], report["opponents"]) == (
        "could not start", 0, [])
    assert "no_such_helper" in report["reason"] and report["ignored"] == []
    assert report["bounded"] and (report["openings"], report["exercise_openings"]) == (1, 10)


def test_match_takes_a_zip_of_an_agents_modules(tmp_path, capsys):
    with zipfile.ZipFile(tmp_path / "handed-in.zip", "w") as archive:
        for path in (AGENTS / "aind").glob("*.py"):
            archive.write(path, f"student/{path.name}")
    assert main(["match", str(tmp_path / "handed-in.zip"), "--openings", "1",
                 "--cpu-seconds", "0.2", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [o["games"] for o in report["opponents"]] == [2, 2, 2]
    assert not any("could not start" in why or "raised" in why
                   for o in report["opponents"] for why in o["losses"].values())


def test_a_league_ranks_escapes_and_resumes(tmp_path):
    entries = tmp_path / "in"
    (entries / "<i>weak&").mkdir(parents=True)
    shutil.copy(AGENTS / "weak.py", entries / "<i>weak&" / "agent.py")
    shutil.copy(AGENTS / "crash.py", entries / "crash.py")
    shutil.copy(AGENTS / "illegal.py", entries / "illegal.py")
    out = tmp_path / "out"
    flags = ["league", str(entries), "-o", str(out), "--openings", "1", "--cpu-seconds", "1"]
    assert main(flags) == 0
    rows = json.loads((out / "leaderboard.json").read_text())
    assert [(r["name"], r["wins"], r["faults"]) for r in rows] == [
        ("<i>weak&", 4, 0), ("crash", 2, 2), ("illegal", 0, 4)]
    page = (out / "index.html").read_text()
    assert "&lt;i&gt;weak&amp;" in page and "<i>weak" not in page
    student = (out / "students" / "%3Ci%3Eweak%26.html").read_text()
    replays = re.findall(r'href="\.\./(games/[0-9a-f]+\.html)"', student)
    assert len(replays) == 4 and "<svg" not in student  # each replay on a page of its own
    replay = (out / replays[0]).read_text()
    assert "move 3: player" in replay and replay.count("<svg") >= 3
    assert "mu - 3 sigma" in page and 'id="head-to-head"' in page
    games = (out / "games.jsonl").read_text()
    assert main(flags) == 0 and (out / "games.jsonl").read_text() == games  # nothing replayed
    shutil.copy(AGENTS / "weak.py", entries / "crash.py")  # crash's file changed
    assert main(flags) == 0
    lines = (out / "games.jsonl").read_text().splitlines()[1:]
    assert len(lines) == 6
    assert json.loads((out / "leaderboard.json").read_text())[-1]["name"] == "illegal"


@pytest.mark.parametrize(("name", "reason"), [
    ("weak", "had no move left"),
    ("slow", "ran out of time"),
    ("crash", "crashed: its process ended (exit status 3)"),
    ("flood", "printed more than 64 KiB in one game"),
    ("snoop", "had no move left"),
])
def test_an_agent_in_docker_gets_what_it_earns(tmp_path, docker_client, name, reason):
    games = both_sides(launch.student(name, AGENTS / f"{name}.py", "Agent", "docker"),
                       launch.baseline("random"))
    for game in games:
        assert reason in game.reason, game.reason
        if reason != "had no move left":
            assert game.loser() == name, game.reason
    owner = f"{LABEL}.owner"
    mine = f"{owner}={labels()[owner]}"  # this process's: other tests' run beside it
    left = docker_client.containers.list(all=True, filters={"label": mine})
    assert not left, [(container.name, container.status) for container in left]


# -- what an agent is timed by: its control group (see grader.match.clock) ---------------


@pytest.fixture
def groups():
    why = cgroups.available()
    if why:
        skip_loudly("control groups", why)


@pytest.fixture
def pressure(groups):
    probe = cgroups.Group()
    try:
        if probe.waited_seconds() is None:
            skip_loudly("cgroup v2 pressure", "this machine's groups are v1: no pressure to read")
    finally:
        probe.remove()


@pytest.fixture
def no_groups(monkeypatch):
    """The agents of this test are timed as where no group can be made: from /proc."""
    monkeypatch.setattr(cgroups, "available", lambda: "none, for this test")


def off_turn(agent, pause=3.0, moves=3):
    """``agent`` (the ponder) asked for ``moves`` moves, ``pause`` seconds apart (the
    opponent's turn): the CPU its clock counted in each pause, and what the agent
    says it got between its moves (ms)."""
    counted, got = [], []
    try:
        assert agent.new_game("knights", 0, 1).fault is None
        for _ in range(moves):
            answer = agent.move(OPENED, Limits(1.0, 10))
            assert answer.fault is None, answer.fault
            got.append(answer.reply.depth)
            before = agent.clock.read()[0]
            time.sleep(pause)
            counted.append(agent.clock.read()[0] - before)
    finally:
        agent.close()
    return counted, got[1:]


@pytest.mark.parametrize("where", ["local", "docker"])
def test_a_pondering_thread_gets_nothing_on_the_opponents_time(request, groups, where):
    if where == "docker":
        request.getfixturevalue("docker_client")
    counted, got = off_turn(launch.student("ponder", AGENTS / "ponder.py", "Agent", where))
    assert counted == [0.0] * len(counted), counted  # frozen: not a tick in 3 s
    # Only the moment between its reply and its freezing, which its move is charged
    # with: nowhere near the 3 s it would have had.
    assert all(ms < 500 for ms in got), got


def test_a_pondering_thread_thinks_on_the_opponents_time_where_nothing_freezes_it(no_groups):
    """The ponder's thinking works: unfrozen, it gets CPU between its moves."""
    counted, got = off_turn(launch.student("ponder", AGENTS / "ponder.py", "Agent"))
    assert sum(got) > 500 and sum(counted) > 0.5, (got, counted)


def test_an_agent_that_cannot_be_stopped_after_its_reply_is_killed_and_charged_nothing(
        groups, monkeypatch):
    def stuck(group):
        raise cgroups.Stuck("its control group was not frozen within 5 s")
    monkeypatch.setattr(cgroups.Group, "freeze", stuck)
    agent = launch.student("ponder", AGENTS / "ponder.py", "Agent")
    try:
        answer = agent.new_game("knights", 0, 1)
        assert agent.process.returncode is not None  # killed
    finally:
        agent.close()
    assert answer.fault == ("could not be stopped after its reply (its control group was not "
                            "frozen within 5 s): not charged") and not answer.charged


def one_move(agent, limits):
    """``agent``'s answer to its first move of a game, the agent closed after."""
    try:
        assert agent.new_game("knights", 0, 1).fault is None
        return agent.move(OPENED, limits)
    finally:
        agent.close()


@pytest.mark.parametrize("where", ["local", "docker"])
def test_the_cpu_of_children_hidden_from_rusage_is_charged(request, groups, where):
    if where == "docker":
        request.getfixturevalue("docker_client")
    answer = one_move(launch.student("hidden", AGENTS / "hidden.py", "Agent", where),
                      Limits(1.0, 30))
    assert answer.fault == f"ran out of time: {answer.cpu:.2f} s of CPU time, the limit is 1 s"


def test_children_hidden_from_rusage_go_unseen_by_proc(no_groups):
    """The hidden agent's trick works where its group does not count: a move of
    1.5 s of CPU is charged almost nothing."""
    answer = one_move(launch.student("hidden", AGENTS / "hidden.py", "Agent"), Limits(1.0, 30))
    assert answer.fault is None and answer.cpu < 0.5, answer


def test_an_agent_that_dawdles_under_its_wall_limit_is_stopped_by_the_matchs_deadline(
        tmp_path):
    limits = Limits(0.5, 10)  # the dawdle sleeps 4.5 s a move, under its wall limit of 5 s
    deadline = Deadline(12.0)
    settings = tournament.Settings("knights", seed=3, openings=2, limits=limits)

    def make(who):
        if who == "dawdle":
            agent = launch.student(who, AGENTS / "dawdle.py", "Agent")
            agent.deadline = deadline
            return agent
        return launch.baseline(who)

    games = tournament.play_pairing("dawdle", "random", make, settings,
                                    tournament.Store(tmp_path / "games.jsonl", settings))
    assert [g.loser() for g in games] == ["dawdle"] * 4
    assert all("ran past the match's deadline" in g.reason for g in games), [
        g.reason for g in games]
    moves = [p for g in games for p in g.plies if p.agent and g.names[p.player] == "dawdle"]
    assert moves and all(4.4 < p.wall - (p.waited or 0) < 5.0 for p in moves)  # none faulted
    # Its own time stopped where the deadline is, within one move's wall limit.
    assert deadline.seconds < deadline.used < deadline.seconds + limits.wall_seconds


@contextmanager
def busy_machine(per_core):
    """Busy loops, ``per_core`` a core, each in a session of its own (each its own
    neighbour to the scheduler), ended after a minute whatever happens to the test."""
    loop = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass"
    busy = [subprocess.Popen([sys.executable, "-c", loop], start_new_session=True)
            for _ in range(per_core * len(os.sched_getaffinity(0)))]
    try:
        yield
    finally:
        for process in busy:
            process.kill()
            process.wait()


def test_time_left_gives_an_agent_its_cpu_on_a_busy_machine(pressure):
    limits = Limits(0.3, 6)
    agent = launch.student("spender", AGENTS / "spender.py", "Agent")
    try:
        assert agent.new_game("knights", 0, 1).fault is None
        with busy_machine(per_core=6):
            answers = [agent.move(OPENED, limits) for _ in range(2)]
    finally:
        agent.close()
    for answer in answers:
        assert answer.fault is None, answer.fault
        # time_left counted its CPU down to the margin, however long that took ...
        assert answer.reply.depth >= 0.8 * limits.cpu_seconds * (1 - contract.MARGIN) * 1000
        # ... which, beside the busy loops, took longer than the half of the wall limit
        # time_left once offered; most of it was its wait for a CPU, not its own time.
        assert answer.wall > 0.5 * limits.wall_seconds, answer
        assert answer.waited > 0.5 * answer.wall, answer


class Going:
    """A group whose folder the engine is removing: every file answers ``errno``."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __getattr__(self, name: str):
        def fails(*args):
            raise OSError(self.number, os.strerror(self.number))
        return fails


@pytest.mark.parametrize("number", [errno.ENOENT, errno.ENODEV])
def test_a_group_gone_or_going_leaves_its_last_reading(number):
    agent = clock.GroupClock(Going(number))
    agent.last = (1.5, 0.25)
    assert agent.read() == (1.5, 0.25)
    agent.freeze(), agent.thaw(), agent.kill(), agent.close()  # nothing left to act on


def test_a_group_that_refuses_for_another_reason_is_not_taken_as_gone():
    with pytest.raises(PermissionError):
        clock.GroupClock(Going(errno.EACCES)).read()


def test_a_killed_match_leaves_nothing_once_the_next_command_starts(tmp_path):
    """SIGKILL of the command: its agents' groups (frozen ones too) and their processes
    are gone once the next match, grade or league starts (``clock.sweep``)."""
    if cgroups.available() is not None:
        skip_loudly("a killed match's groups swept", cgroups.available())
    command = subprocess.Popen([sys.executable, "-m", "grader", "match", str(AGENTS / "weak.py"),
                                "--openings", "1", "--cpu-seconds", "0.5", "--jobs", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    mine = f"{cgroups.PREFIX}{command.pid}-"
    deadline = time.monotonic() + 120  # a generous bound on a loaded machine
    while not any(f.name.startswith(mine) for f in cgroups.ours()):
        assert command.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(1)  # into its games: agents thinking, or frozen between their moves
    command.kill()
    command.wait()
    left = [f for f in cgroups.ours() if f.name.startswith(mine)]
    pids = [int(pid) for f in left if (f / "cgroup.procs").exists()
            for pid in (f / "cgroup.procs").read_text().split()]
    clock.sweep()
    assert not [f for f in cgroups.ours() if f.name.startswith(mine)]
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists() or \
            Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] in "ZX"
