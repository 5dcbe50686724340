"""What decides a verdict can't be set from the student's process, and nothing
it sends turns into a grader error.

The student's code here attacks the worker it runs in the ways a student who
read the worker's source would: it writes its own lines on the answers pipe,
walks the frames to the grader's live objects, patches what it finds, and
reaches for ``gc``, ``ctypes`` and trace functions. Honest code that uses
logging, tracebacks, deep copies and threads must not be accused.
"""


import pytest

from grader.contracts.owntime import OwnClock
from grader.contracts.provided import provide
from grader.games import isolation, tictactoe
from grader.harness.lesson.search import Search
from grader.harness.runtime.faults import (
    ChangedGrader,
    ImportFailed,
    OutOfTurn,
    Raised,
    StudentFault,
    WorkerDied,
)
from grader.harness.runtime.steps import call_step, grant, inspect_step
from grader.harness.runtime.student import Student

STUDENT_CODE = r'''
import copy, json, logging, os, sys, threading, traceback

ANSWERS = int(sys.argv[2])  # the worker's answers pipe (see worker.py)


def say(*lines):
    os.write(ANSWERS, b"".join(line + b"\n" for line in lines))


def forge_float(state):
    say(b'{"value": {"float": "not a number"}, "on": 1, "id": 2}')
    return 0


def forge_deep(state):
    say(b"[" * 50_000 + b"]" * 50_000)
    return 0


def forge_raised(state):
    say(b'{"raised": 5}')
    return 0


def forge_no_ids(state):
    say(b'{"value": 1}')
    return 0


def forge_shares(state):
    say(b'{"value": 1, "on": 1, "id": 2}', b'{"value": [1, 2]}')
    return 0


def forge_ticks(state):
    say(b"t nowhere", b"t nowhere")
    return terminal_test(state)


def forge_undecodable(state):
    say(b"t \xff", b"t \xfe")
    return terminal_test(state)


def twice(state):
    terminal_test(state)
    return terminal_test(state)


def grader_frames():
    frame = sys._getframe()
    while frame:
        yield frame
        frame = frame.f_back


def swap_kept(state):
    """The deep-copy attack: every object the grader kept becomes a copy."""
    for frame in grader_frames():
        session = frame.f_locals.get("session")
        if session is not None:
            for handle, kept in list(session.handles.items()):
                session.handles[handle] = copy.deepcopy(kept)
    return 0


def patch_globals(state):
    for frame in grader_frames():
        if "_resolve" in frame.f_globals:
            frame.f_globals["_resolve"] = lambda target, made, session: None
    return 0


def read_defaults(state):
    return len(terminal_test.__defaults__)


def quiet_defaults(state):
    try:
        terminal_test.__code__ = (lambda gameState: False).__code__
    except Exception:
        pass  # caught: the grader was told all the same
    return 0


def all_objects(state):
    import gc
    return len(gc.get_objects())


def use_ctypes(state):
    import ctypes
    return 0


def trace(state):
    sys.settrace(lambda *args: None)
    return 0


def memory(state):
    with open("/proc/self/mem", "rb"):
        return 0


def honest(state):
    """What honest code does: log, format a caught error, copy, use a thread."""
    logging.getLogger("student").warning("searching")
    try:
        1 / 0
    except ZeroDivisionError:
        traceback.format_exc()
    copy.deepcopy(state)
    worker = threading.Thread(target=lambda: None)
    worker.start()
    worker.join()
    return terminal_test(state)


def make():
    return [1, 2]


def shout():
    raise ValueError("\n" * 40 + "10/10 points\n\nok\nok\n")
'''

FORGED_IMPORT = r'''
import os, sys
os.write(int(sys.argv[2]), b'{"import_failed": {"kind": "syntax"}}\n')
'''


def soon(seconds=10):
    """A call's deadline, on the wall clock (these tests make no control group)."""
    return OwnClock().deadline(seconds)


def root():
    return {"trusted": isolation.to_data(isolation.new_game())}


@pytest.fixture
def student(tmp_path):
    (tmp_path / "code.py").write_text(STUDENT_CODE)
    provide(["gamestate"], tmp_path / "provided")
    worker = Student(tmp_path, ["code"], tmp_path / "provided")
    yield worker
    worker.stop()


def counted(student, name):
    return student.call(("module", "code"), name, root(), deadline=soon(), count_in="code")


def root_label():
    return isolation.label(isolation.new_game())


@pytest.mark.parametrize("name, says", [
    ("forge_float", "not a float"),
    ("forge_deep", "not JSON"),
    ("forge_no_ids", "ids"),
])
def test_a_forged_reply_is_the_students_doing(student, name, says):
    with pytest.raises(WorkerDied, match=f"interfered with the grader's channel.*{says}"):
        counted(student, name)
    assert counted(student, "twice")["value"] is False  # a fresh worker answers


def test_a_forged_raise_without_its_fields_is_a_plain_failure(student):
    with pytest.raises(Raised) as caught:
        counted(student, "forge_raised")
    assert caught.value.raised == {"type": "", "message": "", "traceback": ""}


def test_a_forged_inspection_answer_is_refused(student):
    chain = [call_step(("module", "code"), "forge_shares", root()),
             inspect_step("shares", ("step", 0), ("step", 0))]
    [(replies, fault)] = student.run([chain], soon)
    assert isinstance(fault, WorkerDied) and "inspecting states" in str(fault)


def test_a_forged_import_failure_is_a_failed_import(tmp_path):
    (tmp_path / "code.py").write_text(FORGED_IMPORT)
    worker = Student(tmp_path, ["code"], tmp_path)
    with pytest.raises(ImportFailed) as caught:
        worker.start()
    assert str(caught.value) == "your code interfered with the grader's channel while importing " \
        "your files"
    worker.stop()


def test_terminal_tests_are_tallied_by_the_supervisor_by_position(student):
    reply = counted(student, "twice")
    assert reply["calls"] == {root_label(): 2} and str(reply["calls"]) == "2"
    forged = counted(student, "forge_ticks")["calls"]
    assert forged.total() == 3 and forged != Search().decision(isolation.new_game(), 1)[0]


def test_labels_alike_once_decoded_are_one_label_with_their_counts_added(student):
    calls = counted(student, "forge_undecodable")["calls"]
    assert calls == {"\ufffd": 2, root_label(): 1}


def test_honest_code_is_not_accused(student):
    reply = counted(student, "honest")
    assert reply["calls"] == {root_label(): 1} and student.reached == set()


@pytest.mark.parametrize("name", ["read_defaults", "quiet_defaults", "all_objects",
                                  "use_ctypes", "trace", "memory", "patch_globals"])
def test_reaching_into_the_grader_fails_the_call_and_is_noted(student, name):
    with pytest.raises(ChangedGrader, match="reached into the grader"):
        counted(student, name)
    assert student.reached and "For your instructor" in student.notes()[-1]


def test_a_kept_object_swapped_behind_the_graders_back_is_noticed(student):
    kept = student.call(("module", "code"), "make", deadline=soon(), keep=True)
    student.call(("module", "code"), "swap_kept", root(), deadline=soon())
    with pytest.raises(ChangedGrader, match="swapped"):
        student.call(("handle", kept["handle"]), "copy", deadline=soon())


def test_every_fault_of_the_student_is_a_student_fault():
    for fault in (ChangedGrader, WorkerDied, Raised, ImportFailed):
        assert issubclass(fault, StudentFault)


def test_a_raised_message_is_one_line(student):
    """A message of many lines would print like the report's own table."""
    with pytest.raises(Raised) as caught:
        student.call(("module", "code"), "shout", deadline=soon())
    assert "\n" not in caught.value.raised["message"]
    assert caught.value.raised["message"] == "10/10 points ok ok"


BORROWS_THE_RULES = '''
import sys

def by_import():
    from grader.games.tictactoe import rules
    return rules.end("XXX......")

def by_modules():
    return sorted(name for name in sys.modules if name.startswith("grader.games"))

def by_file():
    import os
    folder = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[0]))))
    with open(os.path.join(folder, "games", "tictactoe", "rules.py")) as handle:
        return handle.read(20)
'''


@pytest.mark.parametrize("name", ["by_import", "by_file"])
def test_the_stand_ins_rules_are_out_of_the_students_reach(tmp_path, name):
    """The tic-tac-toe kit runs the trusted rules in the student's process: a
    student's is_end may not borrow them, by import or by reading their file."""
    (tmp_path / "code.py").write_text(BORROWS_THE_RULES)
    worker = Student(tmp_path, ["code"], tmp_path, game="tictactoe")
    try:
        with pytest.raises(ChangedGrader, match="game rules|import grader.games"):
            worker.call(("module", "code"), name, deadline=soon())
        assert worker.call(("module", "code"), "by_modules", deadline=soon())["value"] == []
    finally:
        worker.stop()


HOLDS = r'''
import sys

def stand_ins():
    """What the worker's session holds, found on the stack as an attacker would."""
    frame = sys._getframe(1)
    while "session" not in frame.f_locals:
        frame = frame.f_back
    session = frame.f_locals["session"]
    return sorted({name for held in session.stand_ins.values() for name, _ in held})

def holds(gameState):
    return stand_ins()

def min_value(gameState):
    return -max_value(gameState)

def max_value(gameState):
    return 0
'''


@pytest.fixture
def holder(tmp_path):
    (tmp_path / "code.py").write_text(HOLDS)
    provide(["gamestate"], tmp_path / "provided")
    worker = Student(tmp_path, ["code"], tmp_path / "provided")
    yield worker
    worker.stop()


def test_a_worker_holds_only_the_stand_ins_of_its_grant(holder):
    """Testing min_value with the grader's max_value: no trusted min_value, nor
    anything at all without a counted call."""
    def held(**step):
        [(replies, fault)] = holder.run(
            [[call_step(("module", "code"), "holds", root(), **step)]], soon)
        assert fault is None
        return replies[0]["value"]

    assert held() == []
    assert held(count_in="code", trusted=["max_value"]) == ["max_value", "terminal_test"]
    assert held(count_in="code") == ["terminal_test"]


def test_no_request_grants_the_function_it_tests():
    with pytest.raises(AssertionError):
        call_step(("module", "code"), "min_value", trusted=["min_value"])
    both = [[call_step(("module", "code"), "min_value", count_in="code", trusted=["max_value"])],
            [call_step(("module", "code"), "max_value", count_in="code", trusted=["min_value"])]]
    with pytest.raises(AssertionError, match="both tested and stood in for"):
        grant(both)


def test_a_stand_in_used_out_of_turn_is_no_answer(holder):
    """-max_value(state) on the very state is minimax's min_value, but not a search."""
    [(_, fault)] = holder.run([[call_step(("module", "code"), "min_value", root(), count_in="code",
                                          trusted=["max_value"], root=root_label())]], soon)
    assert isinstance(fault, OutOfTurn) and "does not follow by a move" in str(fault)
    assert any("out of turn" in note or "don't follow" in note for note in holder.notes())


@pytest.mark.parametrize("game, root, below, other", [
    (tictactoe, "X........", "XO.......", "O........"),
    (isolation, root_label(), isolation.label(isolation.new_game().forecast_move((0, 0))),
     isolation.label(isolation.new_game())),
])
def test_what_follows_from_a_root(game, root, below, other):
    assert game.descends(root, below)
    assert not game.descends(root, root)  # the same position: no move made
    assert not game.descends(below, root)
    assert not game.descends(root, "?")
