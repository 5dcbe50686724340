"""The worker and its client: plain data only, deadlines, deaths, capped output."""

import collections
import importlib.util
import json
import os
import socket
import tempfile
import time
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.contracts import protocol
from grader.contracts.owntime import OwnClock
from grader.contracts.provided import provide
from grader.games import isolation
from grader.harness.runtime import guard, standins
from grader.harness.runtime.faults import (
    CallTimeout,
    ImportFailed,
    Missing,
    Raised,
    StudentFault,
    WorkerDied,
)
from grader.harness.runtime.spawn import LocalSpawner
from grader.harness.runtime.steps import call_step, inspect_step
from grader.harness.runtime.student import Student, Tallies
from grader.harness.runtime.zygote import ForkSpawner

STUDENT_CODE = '''
import os, sys, time

class Liar(tuple):
    def __eq__(self, other):
        return True
    __hash__ = tuple.__hash__

def lie(state):
    return Liar((0, 0))

def echo(value):
    return value

def spin(state):
    while True:
        pass

def leave(code):
    os._exit(code)

def flood(state):
    sys.stdout.write("x" * 1_000_000)
    return (0, 0)

def moves(state):
    return state.get_legal_moves()

def boom(state):
    return helper(state)

def helper(state):
    raise ValueError("bad " * 100)

def gen(state):
    yield from state.get_legal_moves()

class Lab:
    def __init__(self):
        self.current_state = None

    def __repr__(self):
        return "Lab()"

    def read(self):
        return self.current_state

class Broken:
    def __init__(self):
        raise ValueError("no lab today")
'''


def soon(seconds=5):
    """A call's deadline, on the wall clock (these tests make no control group)."""
    return OwnClock().deadline(seconds)


@pytest.fixture
def student(tmp_path):
    (tmp_path / "code.py").write_text(STUDENT_CODE)
    provide(["gamestate"], tmp_path / "provided")
    worker = Student(tmp_path, ["code"], tmp_path / "provided", output_cap=1000)
    yield worker
    worker.stop()


def root_arg():
    return {"trusted": isolation.to_data(isolation.new_game())}


def test_answers_arrive_as_plain_data(student):
    reply = student.call(("module", "code"), "moves", root_arg(), deadline=soon())
    assert sorted(reply["value"]) == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
    assert all(type(m) is tuple for m in reply["value"])


def test_an_object_that_equals_everything_arrives_as_foreign(student):
    value = student.call(("module", "code"), "lie", root_arg(), deadline=soon())["value"]
    assert isinstance(value, protocol.Foreign) and value.type_name == "Liar"
    assert value != (0, 0)


def test_a_generator_is_named_and_its_items_kept(student):
    value = student.call(("module", "code"), "gen", root_arg(), deadline=soon())["value"]
    assert isinstance(value, protocol.Foreign) and value.type_name == "generator"
    assert len(value.items) == 5


def test_an_endless_loop_times_out_and_the_next_call_works(student):
    started = time.monotonic()
    with pytest.raises(CallTimeout):
        student.call(("module", "code"), "spin", root_arg(), deadline=soon(0.5))
    assert time.monotonic() - started < 3
    assert student.call(("module", "code"), "echo", 5, deadline=soon())["value"] == 5
    assert student.restarts == 1


def test_a_worker_that_exits_is_reported_and_replaced(student):
    with pytest.raises(WorkerDied, match="exit code 0"):
        student.call(("module", "code"), "leave", 0, deadline=soon())
    assert student.call(("module", "code"), "echo", [1], deadline=soon())["value"] == [1]


def test_a_raised_error_shows_the_student_frames_only(student):
    with pytest.raises(Raised) as caught:
        student.call(("module", "code"), "boom", root_arg(), deadline=soon())
    text = str(caught.value)
    assert text.startswith("boom raised ValueError: bad bad")
    assert 'File "code.py"' in text and "in helper" in text
    assert "worker.py" not in text


def test_a_missing_function_is_named(student):
    with pytest.raises(Missing, match="no function or class named nothing_here"):
        student.call(("module", "code"), "nothing_here", deadline=soon())


@pytest.mark.parametrize("make, name", [("Lab", "read"), ("Nowhere", "read"),
                                        ("Broken", "read"), ("Lab", "absent")])
def test_a_step_that_makes_its_object_answers_as_the_two_calls_would(student, make, name):
    """A call on an object made in the same step (the lab's Game) gives the
    value, or the fault with its words, of a chain that makes it, then calls."""
    setup = {"current_state": [1, 2]}
    one = call_step(("module", "code"), name, make=make, setup=setup)
    two = [call_step(("module", "code"), make), call_step(("step", 0), name, setup=setup)]
    [(merged, fault), (chained, chain_fault)] = student.run([[one], two], soon)
    if fault is None:
        assert chain_fault is None and merged[0]["value"] == chained[1]["value"] == [1, 2]
    else:
        assert (type(fault), str(fault)) == (type(chain_fault), str(chain_fault))


def test_the_guard_sees_every_change_of_a_namespace_by_identity():
    """A value swapped for an equal one, a name removed as another is added
    (the same size: the one removed is named), a name added: each shows; a
    class's ``__slotnames__`` does not."""
    space = types.SimpleNamespace(answer=1000, gone=None, kept="same")
    taken = guard.snapshot(space)
    assert guard.changed(taken) == []
    space.answer = int("1000")  # equal, another object
    del space.gone
    space.added = None  # where ``gone`` was None: no change in size
    assert sorted(guard.changed(taken)) == ["?.answer", "?.gone"]

    class Kept:
        pass

    taken = guard.snapshot(Kept)
    Kept.__slotnames__ = []
    assert guard.changed(taken) == []
    Kept.more = 1
    assert guard.changed(taken) == ["Kept.more"]


def test_output_is_captured_and_capped(student):
    student.call(("module", "code"), "flood", root_arg(), deadline=soon())
    student.stop()
    output = student.output()
    assert output["bytes"] == 1_000_000 and output["truncated"]
    assert len(output["text"]) == 1000


def test_syntax_error_names_file_line_and_text(tmp_path):
    (tmp_path / "code.py").write_text("x = 1\ndef f(:\n    pass\n")
    worker = Student(tmp_path, ["code"], tmp_path)
    with pytest.raises(ImportFailed) as caught:
        worker.start()
    assert str(caught.value).startswith("code.py has a syntax error on line 2")
    assert "def f(:" in str(caught.value)
    with pytest.raises(ImportFailed):  # remembered, not retried
        worker.start()


def test_crash_at_import_shows_the_student_traceback(tmp_path):
    (tmp_path / "code.py").write_text("print('hi')\nvalue = undefined_name\n")
    worker = Student(tmp_path, ["code"], tmp_path)
    with pytest.raises(ImportFailed) as caught:
        worker.start()
    text = str(caught.value)
    assert "importing code.py raised NameError" in text and "line 2" in text
    assert "importlib" not in text


def test_wire_round_trip_keeps_exact_types():
    for value in [None, 3, True, 1.5, float("inf"), "s", [1, (2, 3)], (1,), {(0, 1)}]:
        assert protocol.decode(protocol.encode(value)) == value
        assert type(protocol.decode(protocol.encode(value))) is type(value)


def test_wire_refuses_malformed_messages():
    for bad in [{"list": 3}, {"what": 1}, [1, 2], "text", {"bool": "yes"}]:
        with pytest.raises(protocol.BadMessage):
            protocol.decode(bad)


# What a worker may send the judge, as the student's code can write it on the
# pipe: replies with any of the keys a reply has and any JSON in them, tally
# and alarm lines with any label, and any bytes at all.
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3), max_leaves=10)
REPLY_KEYS = ("value", "on", "id", "handle", "read", "raised", "missing", "made", "making",
              "bad_request", "changed")
LINES = st.one_of(
    st.binary(max_size=40),
    st.tuples(st.sampled_from([protocol.TESTED, protocol.ENTERED, protocol.ALARM]),
              st.binary(max_size=20)).map(b"".join),
    st.dictionaries(st.sampled_from(REPLY_KEYS), ANY_JSON, max_size=5).map(
        lambda reply: json.dumps(reply).encode()),
    ANY_JSON.map(lambda value: json.dumps(value).encode()),
).map(lambda line: line.replace(b"\n", b""))
ANSWER = b'{"value": null, "on": 1, "id": 2}'  # a well-formed reply, after the fuzzed lines


@pytest.fixture(scope="module")
def unstarted(tmp_path_factory):
    """A Student whose worker is never started: its lines are given by the test."""
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "code.py").write_text(STUDENT_CODE)
    return Student(folder, ["code"], folder)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(LINES, max_size=8), st.sampled_from(["call", "shares"]),
       st.sampled_from([None, 3]))
def test_whatever_a_worker_sends_is_an_answer_or_the_students_fault(unstarted, lines, op, most):
    """Every message kind the judge reads from a worker (replies, tallies,
    alarms) is untrusted input: any of it ends as an answer or a
    StudentFault (a graded failure), never another exception."""
    student = unstarted
    step = call_step(("module", "code"), "echo", 1, count_in="code", most=most) \
        if op == "call" else inspect_step("shares", ("step", 0), ("step", 0))
    student._new_step()
    student.lines, student.pending = collections.deque(), bytearray()
    student.ids, student.origins = {}, {}
    student._queue(b"\n".join([*lines, ANSWER]) + b"\n")
    try:
        reply = student._answer(step, soon(), [step], [])
    except StudentFault:
        return
    assert type(reply) is dict
    if op == "call":
        assert isinstance(reply["calls"], protocol.Tested) and type(reply["entered"]) is int


@given(st.lists(LINES, min_size=1, max_size=12))
def test_queued_lines_are_the_lines_sent_with_runs_of_tallies_kept_whole(unstarted, lines):
    """The judge queues what a worker sent line by line, in order: each run of
    tally lines as one ``Tallies``, every other line (a reply, an alarm, an
    empty one) alone."""
    expected: list[tuple[bool, bytes]] = []
    for line in lines:
        tally = line.startswith((protocol.TESTED, protocol.ENTERED))
        if tally and expected and expected[-1][0]:
            expected[-1] = (True, expected[-1][1] + b"\n" + line)
        else:
            expected.append((tally, line))
    unstarted.lines = collections.deque()
    unstarted._queue(b"".join(line + b"\n" for line in lines))
    assert [(isinstance(line, Tallies), bytes(line)) for line in unstarted.lines] == expected


class CleanKills(LocalSpawner):
    """A spawner whose kills leave nothing of the student's behind, as the
    launcher's and bubblewrap's do: the next worker starts at the kill."""

    def _end(self, pid):
        super()._end(pid)
        return True


def test_a_spare_worker_starts_at_a_clean_kill_and_serves_the_next_start_only(tmp_path):
    spawner = CleanKills()
    args = [str(tmp_path), str(tmp_path), "isolation", "missing"]
    first, fds = spawner.start(args, str(tmp_path))
    assert spawner.spare is None  # no spare while a worker runs
    spawner.kill(first)
    spawner.wait(first)
    for fd in fds:
        os.close(fd)
    spare = spawner.spare
    assert spare is not None and spare[1] != first
    second, fds = spawner.start(args, str(tmp_path))
    assert second == spare[1] and spawner.spare is None  # used once, as it is
    spawner.kill(second)
    spawner.wait(second)
    for fd in fds:
        os.close(fd)
    waiting = spawner.spare[1]
    third, fds = spawner.start([*args, "other"], str(tmp_path))  # other arguments
    assert third != waiting
    with pytest.raises(ProcessLookupError):  # the spare was ended, and reaped
        os.kill(waiting, 0)
    spawner.finish()  # the suite has ended: no spare after the last kill
    spawner.kill(third)
    spawner.wait(third)
    for fd in fds:
        os.close(fd)
    assert spawner.spare is None


def test_a_kill_that_may_leave_a_process_starts_no_spare(tmp_path):
    spawner = LocalSpawner()
    pid, fds = spawner.start([str(tmp_path), str(tmp_path), "isolation", "m"], str(tmp_path))
    spawner.kill(pid)
    spawner.wait(pid)
    for fd in fds:
        os.close(fd)
    assert spawner.spare is None


FORKED_PROBE = """
import os, sys
print("AS", os.getuid(), os.getgid(), os.getgroups(), os.getcwd() == sys.path[0], flush=True)
print("FILES", sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
print("OOM", open("/proc/self/oom_score_adj").read().strip())
print("STREAMS", sys.stdout.write_through, sys.stdin.read(), sys.argv[5:7])
"""


@pytest.mark.parametrize("user", [None, 65534] if os.geteuid() == 0 else [None])
def test_a_forked_worker_starts_as_a_new_interpreter_would(user):
    """As the given user, with no group, its pipes and standard streams its only
    files (none of the zygote's), its own /proc entries (the worker made itself
    the first the kernel kills), unbuffered output, and it exits 0 once its
    requests end."""
    with tempfile.TemporaryDirectory() as folder, socket.socket() as zygotes_own:
        os.chmod(folder, 0o755)
        Path(folder, "probe.py").write_text(FORKED_PROBE)
        spawner = ForkSpawner(user=user, env={"PATH": "/usr/bin:/bin"})
        pid, (requests, answers, output) = spawner.start(
            [folder, folder, "isolation", "probe"], folder)
        sources = {name: importlib.util.find_spec(name).loader.get_source(name)
                   for name in standins.kit("isolation").sources(frozenset())}
        os.write(requests, protocol.dumps({"grant": [], "sources": sources}))
        with os.fdopen(answers, "rb") as replies:
            assert protocol.loads(replies.readline()) == {"ready": True}
            os.close(requests)
            assert spawner.wait(pid) == 0
        with os.fdopen(output, "rb") as printed:
            lines = dict(line.split(" ", 1) for line in printed.read().decode().splitlines())
    uid = os.getuid() if user is None else user
    gid = os.getgid() if user is None else user
    assert lines["AS"] == f"{uid} {gid} {[] if user else os.getgroups()} True"
    files = [int(fd) for fd in lines["FILES"].strip("[]").split(", ")]
    assert files[:3] == [0, 1, 2] and len(files) == 6  # + its two pipes and the listing's own
    assert zygotes_own.fileno() not in files
    assert lines["OOM"] == "1000"
    assert lines["STREAMS"] == f"True  {['isolation', 'probe']}"
