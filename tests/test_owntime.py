"""The run's own clock on a deterministic machine: a wall clock and a control
group's account (CPU, wait for a CPU) that the test moves by hand."""

import threading

import pytest

from grader.contracts import owntime
from grader.contracts.owntime import Overloaded, OwnClock
from grader.exercises import Limits
from grader.sandbox import common


class Machine:
    """A wall clock and a group's account, moved by the test: ``work`` (the run
    ran), ``sleep`` (it chose to wait), ``starve`` (it waited for a CPU)."""

    def __init__(self, monkeypatch):
        self.wall = self.cpu = self.waited = 0.0
        monkeypatch.setattr(owntime.time, "monotonic", lambda: self.wall)

    def source(self):
        return self.waited, self.cpu

    def work(self, seconds):
        self.wall += seconds
        self.cpu += seconds

    def sleep(self, seconds):
        self.wall += seconds

    def starve(self, seconds):
        self.wall += seconds
        self.waited += seconds


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

    timed = common.wait(lambda: False, pause, limits.total_seconds, clock)
    assert not timed.ended and not timed.overloaded
    assert timed.used["cpu_seconds"] >= 10 and timed.used["wall_seconds"] >= 20
    assert timed.used["own_seconds"] == pytest.approx(timed.used["cpu_seconds"])


def test_the_host_s_wait_of_a_starved_run_is_overloaded(machine):
    clock = OwnClock(machine.source)
    timed = common.wait(lambda: False, machine.starve, 10, clock)
    assert timed.overloaded and not timed.ended
    assert timed.used["wall_seconds"] >= owntime.backstop(10)


def test_the_host_s_wait_of_a_run_that_ends_in_time(machine):
    ticks = iter(range(5))
    timed = common.wait(lambda: next(ticks) == 4, machine.work, 10, OwnClock(machine.source))
    assert timed.ended and not timed.overloaded


def test_the_host_s_wait_can_be_cancelled(machine):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(common.Cancelled):
        common.wait(lambda: False, machine.work, 10, OwnClock(machine.source), cancel)
