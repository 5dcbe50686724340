"""The run's own clock on a deterministic machine: a wall clock and a control
group's account (CPU, wait for a CPU) that the test moves by hand."""

import os
import socket
import threading
import time

import pytest

from grader.contracts import owntime
from grader.contracts.owntime import Overloaded, OwnClock
from grader.contracts.provided import provide
from grader.exercises import Limits
from grader.harness.runtime.faults import CallTimeout
from grader.harness.runtime.spawn import BrokerSpawner, LocalSpawner, serve
from grader.harness.runtime.student import Student
from grader.harness.runtime.zygote import ForkSpawner
from grader.sandbox import outcome, timing


class Machine:
    """A wall clock and a group's account, moved by the test: ``work`` (the run
    ran), ``sleep`` (it chose to wait), ``starve`` (it waited for a CPU)."""

    def __init__(self, monkeypatch):
        self.wall = self.cpu = self.waited = 0.0
        self.caller_waited: float | None = 0.0  # the calling thread's (None: not counted)
        monkeypatch.setattr(owntime.time, "monotonic", lambda: self.wall)

    def source(self):
        return self.waited, self.cpu

    def caller(self):
        return self.caller_waited

    def sibling_waits(self, seconds):
        """The calling thread sleeps while another thread of the run waits for a CPU."""
        self.wall += seconds
        self.waited += seconds

    def work(self, seconds):
        self.wall += seconds
        self.cpu += seconds

    def sleep(self, seconds):
        self.wall += seconds

    def starve(self, seconds):
        self.wall += seconds
        self.waited += seconds
        if self.caller_waited is not None:
            self.caller_waited += seconds


@pytest.fixture
def machine(monkeypatch):
    return Machine(monkeypatch)


def test_work_and_sleep_count_and_the_wait_for_a_cpu_does_not(machine):
    clock = OwnClock(machine.source)
    assert clock.kernel
    deadline = clock.deadline(2.0)
    machine.work(0.5)
    machine.sleep(0.5)
    machine.starve(30)  # a busy machine: the run waited, at no cost to it
    assert not clock.over(deadline)
    machine.sleep(1.0)  # its own: 2 s in all
    assert clock.over(deadline)


def test_a_sleep_is_charged_whatever_another_thread_waits_for(machine):
    clock = OwnClock(machine.source)
    deadline = clock.deadline(6.0)
    machine.work(0.5)
    machine.sibling_waits(0.25)
    assert not clock.over(deadline, machine.caller)  # the first look starts the watch
    machine.sibling_waits(5.0)
    assert not clock.over(deadline, machine.caller)  # 5.5 s of its own
    machine.sibling_waits(0.5)
    assert not clock.over(deadline)  # the group alone lets it run: 0.5 s of its own ...
    assert clock.over(deadline, machine.caller)  # ... its calling thread slept 5.5 s


def test_the_calling_thread_s_own_wait_for_a_cpu_is_not_charged(machine):
    clock = OwnClock(machine.source)
    deadline = clock.deadline(2.0)
    machine.work(1.0)
    machine.starve(2.0)
    assert not clock.over(deadline, machine.caller)
    machine.starve(30.0)
    machine.work(0.5)
    assert not clock.over(deadline, machine.caller)
    machine.work(0.5)
    assert clock.over(deadline, machine.caller)


def test_a_calling_thread_that_lowered_its_priority_is_charged_its_wait(machine):
    clock = OwnClock(machine.source)
    deadline = clock.deadline(2.0)
    machine.work(1.0)
    machine.starve(1.0)
    assert not clock.over(deadline, machine.caller)
    machine.caller_waited = None  # a nice of 19, or the idle class
    machine.starve(0.5)
    assert not clock.over(deadline, machine.caller)
    machine.starve(0.5)
    assert clock.over(deadline, machine.caller)  # 1 s of its own, and 1 s waited by choice


def test_a_wait_that_stops_being_counted_is_not_counted_again_in_the_step(machine):
    clock = OwnClock(machine.source)
    deadline = clock.deadline(2.0)
    machine.work(1.0)
    assert not clock.over(deadline, machine.caller)
    saved, machine.caller_waited = machine.caller_waited, None
    assert not clock.over(deadline, machine.caller)
    machine.caller_waited = saved
    machine.starve(1.0)
    assert clock.over(deadline, machine.caller)


def test_a_thread_s_wait_counts_at_its_start_priority_only():
    assert isinstance(owntime.thread_wait(os.getpid()), float)
    assert owntime.thread_wait(2 ** 22 + 1) is None  # no such process
    lowered: dict[str, float | None] = {}

    def lower(kind):
        if kind == "nice":
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        else:
            os.sched_setscheduler(0, getattr(os, f"SCHED_{kind.upper()}"), os.sched_param(0))
        lowered[kind] = owntime.thread_wait(os.getpid(), threading.get_native_id())

    for kind in ("nice", "idle", "batch"):
        thread = threading.Thread(target=lower, args=(kind,))
        thread.start()
        thread.join()
    assert lowered == {"nice": None, "idle": None, "batch": None}


def test_cpu_over_the_limit_is_over_whatever_the_wall_clock_says(machine):
    clock = OwnClock(machine.source)
    deadline = clock.deadline(1.0)
    machine.cpu += 1.0  # several processes of the run, at once
    assert clock.over(deadline)


def test_a_run_starved_past_the_backstop_is_overloaded_not_over(machine):
    clock = OwnClock(machine.source)
    deadline = clock.deadline(1.0)
    machine.work(0.9)
    machine.starve(owntime.backstop(1.0))
    with pytest.raises(Overloaded, match="too busy"):
        clock.over(deadline)


def test_the_judge_s_work_on_a_run_counts_against_its_limit(machine):
    """Docker's judge works on the host, outside the container's group: its fork's
    CPU (a group of its own) is added to the run's, the wait is the run's alone."""
    judge = {"cpu": 0.0}
    clock = OwnClock(owntime.charged(machine.source, lambda: (5.0, judge["cpu"])))
    deadline = clock.deadline(10.0)
    machine.work(4.0)
    judge["cpu"] += 4.0  # decoding what the run sent: the wall clock moves too
    machine.wall += 4.0
    assert not clock.over(deadline)
    assert clock.now().own == machine.wall - machine.waited
    judge["cpu"] += 2.0
    assert clock.over(deadline)


def test_a_judge_s_unreadable_group_leaves_the_run_s_clock(machine):
    clock = OwnClock(owntime.charged(machine.source, lambda: None))
    machine.work(1.0)
    assert clock.now().cpu == machine.cpu


def test_the_backstop_is_far_above_the_limit():
    for seconds in (0.5, 1, 6, 45, 185):
        assert owntime.backstop(seconds) >= max(20 * seconds, seconds + 60)


def test_without_a_group_the_wall_clock_is_every_clock(machine):
    for clock in (OwnClock(), OwnClock(""), OwnClock("/no/such/group"),
                  OwnClock(lambda: None)):
        assert not clock.kernel
        deadline = clock.deadline(1.0)
        machine.starve(1.0)  # the wall clock can't tell a wait from a sleep
        assert clock.over(deadline)


def test_a_sooner_deadline_is_sooner_on_every_clock(machine):
    clock = OwnClock(machine.source)
    test = clock.deadline(5.0)
    machine.work(4.5)
    call = clock.deadline(1.0).sooner(test)
    assert (call.own, call.cpu) == (5.0, 5.0)
    assert call.wall == owntime.backstop(1.0) + 4.5


def test_the_host_s_wait_ends_on_time_on_the_run_s_own_clock(machine):
    clock = OwnClock(machine.source)
    limits = Limits(total_seconds=10)
    slept = []

    def pause(seconds):
        slept.append(seconds)
        machine.starve(seconds / 2)
        machine.work(seconds / 2)

    timed = timing.wait(lambda: False, pause, limits.total_seconds, clock)
    assert not timed.ended and not timed.overloaded
    assert timed.used["cpu_seconds"] >= 10 and timed.used["wall_seconds"] >= 20
    assert timed.used["own_seconds"] == pytest.approx(timed.used["cpu_seconds"])


def test_the_host_s_wait_of_a_starved_run_is_overloaded(machine):
    clock = OwnClock(machine.source)
    timed = timing.wait(lambda: False, machine.starve, 10, clock)
    assert timed.overloaded and not timed.ended
    assert timed.used["wall_seconds"] >= owntime.backstop(10)


def test_the_host_s_wait_of_a_run_that_ends_in_time(machine):
    ticks = iter(range(5))
    timed = timing.wait(lambda: next(ticks) == 4, machine.work, 10, OwnClock(machine.source))
    assert timed.ended and not timed.overloaded


def test_the_host_s_wait_can_be_cancelled(machine):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(outcome.Cancelled):
        timing.wait(lambda: False, machine.work, 10, OwnClock(machine.source), cancel)


# A worker's call that sleeps beside threads of its own that are always ready to
# run: where the machine is busy, the group's wait for a CPU covers the whole
# sleep. These runs take that worst case for the group's clock (it waited all
# along, so its own time stands still), and read the kernel's account of the
# worker's calling thread, as the run's spawner sees it.
SLEEPER = '''
import hashlib
import os
import threading
import time

_BLOCK = bytes(1 << 20)
LOWER = {
    "nice_19": lambda: os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19),
    "idle_class": lambda: os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0)),
    "plain": lambda: None,
}


def _spin(lower):
    lower()
    while True:  # hashing a large block runs without the GIL
        hashlib.sha256(_BLOCK).digest()


def sleep_beside(kind, threads, seconds):
    for _ in range(threads):
        threading.Thread(target=_spin, args=(LOWER[kind],), daemon=True).start()
    time.sleep(seconds)
    return True


def work(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    return True
'''


def always_waited():
    """A group whose tasks waited for a CPU all along, and never ran."""
    started = time.monotonic()
    return lambda: (time.monotonic() - started, 0.0)


@pytest.fixture(params=["own", "asked"])
def spawner(request):
    """The worker's spawner: one that sees its workers itself (the bare local
    sandbox's), or a zygote's asked over its socket (bubblewrap's, Docker's)."""
    if request.param == "own":
        yield LocalSpawner()
        return
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    zygote = ForkSpawner()
    server = threading.Thread(target=serve, args=(theirs, zygote), daemon=True)
    server.start()
    yield BrokerSpawner(ours.detach())
    theirs.close()
    server.join(timeout=5)


def student_with(folder, spawner):
    (folder / "sleeper.py").write_text(SLEEPER)
    provide(["gamestate"], folder / "provided")
    return Student(folder, ["sleeper"], folder / "provided", spawner=spawner,
                   clock=OwnClock(always_waited()))


@pytest.mark.parametrize(("kind", "threads"), [("nice_19", 1), ("idle_class", 1), ("plain", 8)])
def test_a_sleep_beside_threads_that_wait_is_charged(kind, threads, spawner, tmp_path):
    student = student_with(tmp_path, spawner)
    try:
        with pytest.raises(CallTimeout):
            student.call(("module", "sleeper"), "sleep_beside", kind, threads, 60,
                         deadline=student.clock.deadline(1.0))
        assert student.restarts == 1
    finally:
        student.stop()


def test_a_call_that_works_is_not_charged_its_wait_for_a_cpu(spawner, tmp_path):
    student = student_with(tmp_path, spawner)
    try:
        # Half a second of the calling thread's CPU against a limit of 20: its
        # wait for a CPU, however long on a busy machine, is not charged.
        assert student.call(("module", "sleeper"), "work", 0.5,
                            deadline=student.clock.deadline(20.0))["value"] is True
    finally:
        student.stop()
