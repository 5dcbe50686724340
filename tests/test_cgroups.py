"""Control groups, for real on this machine: what the kernel counts of a
process tree that hides its work, freezing, killing, the wait for a CPU."""

import os
import subprocess
import sys
import time

import pytest
from conftest import frozen_once_busy, skip_loudly

from grader.sandbox import cgroups

# Three children, each auto-reaped (SIGCHLD ignored: no rusage ever holds their
# time), each busy for 0.3 s of its own CPU; the parent waits for them to end.
HIDDEN_WORK = """
import os, signal, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for _ in range(3):
    if os.fork() == 0:
        start = time.process_time()
        while time.process_time() - start < 0.3:
            pass
        os._exit(0)
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
print(sum(os.times()[:4]))
"""
BUSY = "while True: pass"


@pytest.fixture
def group():
    why = cgroups.available()
    if why:
        skip_loudly("control groups", why)
    made = cgroups.Group()
    yield made
    made.remove()


def start_in(group, code, **options):
    """``code`` run by Python, its process put in ``group`` before it starts."""
    return subprocess.Popen(group.command([sys.executable, "-c", code]), **options)


def test_the_cpu_of_auto_reaped_children_is_counted(group):
    done = start_in(group, HIDDEN_WORK, stdout=subprocess.PIPE, text=True)
    seen_by_rusage = float(done.communicate(timeout=120)[0])
    assert seen_by_rusage < 0.2  # the children's 0.9 s are in no rusage
    assert group.cpu_seconds() >= 0.85  # but the kernel's account of the group has them


def test_a_frozen_group_uses_no_cpu_until_thawed(group):
    busy = start_in(group, BUSY)
    try:
        frozen_at = frozen_once_busy(group, 0.5)
        group.thaw()
        deadline = time.monotonic() + 60
        while group.cpu_seconds() == frozen_at and time.monotonic() < deadline:
            time.sleep(0.01)
        assert group.cpu_seconds() > frozen_at
    finally:
        group.kill()
        busy.wait(timeout=60)
    assert busy.returncode == -9 and group.pids() == []


def test_a_frozen_group_is_killed_whole(group):
    busy = start_in(group, "import os\nos.fork()\n" + BUSY)
    deadline = time.monotonic() + 60
    while len(group.pids()) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    group.freeze()
    group.kill()
    busy.wait(timeout=60)
    deadline = time.monotonic() + 60
    while group.pids() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert group.pids() == []


def test_the_wait_for_a_cpu_is_told_apart_from_work_and_sleep(group):
    if group.waited_seconds() is None:
        skip_loudly("cgroup v2 pressure", "this kernel keeps no pressure (psi=0)")
    # A sleeper waits for no CPU while it sleeps (its interpreter's start, on a busy
    # machine, may have waited: that is left out).
    sleeper = start_in(group, "import time; print(flush=True); time.sleep(1)",
                       stdout=subprocess.PIPE)
    sleeper.stdout.readline()
    before = group.waited_seconds()
    sleeper.wait(timeout=60)
    sleeper.stdout.close()
    assert group.waited_seconds() - before < 0.2
    # Four busy processes on at most as many cores as this machine has: while more
    # are runnable than there are cores, some of them wait the whole time.
    cores = len(os.sched_getaffinity(0))
    busy = [start_in(group, BUSY) for _ in range(2 * cores)]
    started = time.monotonic()
    time.sleep(1.5)
    group.kill()
    for process in busy:
        process.wait(timeout=60)
    assert group.waited_seconds() > 0.5 * (time.monotonic() - started)


def test_a_group_of_an_ended_process_is_swept(group):
    # As if made by a process that has ended: its pid is no process.
    gone = group.folder.with_name(f"{cgroups.PREFIX}999999999-0")
    gone.mkdir()
    assert cgroups.sweep() >= 1
    assert not gone.exists()
    assert group.folder.exists()  # a live process's stays


def test_a_containers_own_group_is_taken_as_it_is(group):
    """A container's first process in a group whose path names the container (as
    engines name theirs): that group is the one timed, and left to its maker."""
    sleeper = start_in(group, "import time; time.sleep(60)")
    try:
        deadline = time.monotonic() + 60
        while not group.pids() and time.monotonic() < deadline:
            time.sleep(0.01)
        found = cgroups.of_container(sleeper.pid, group.name)
        assert found.folder == group.folder and not found.owned
        found.remove()  # kills, and leaves the folder to its maker
        sleeper.wait(timeout=60)
        assert group.folder.exists()
    finally:
        group.kill()


def test_a_containers_processes_are_moved_into_a_group_where_none_names_it(group):
    """Where the container's group is not to be found, its processes (a parent and
    its child here) are moved into a group made for it."""
    parent = subprocess.Popen([sys.executable, "-c", "import os, time\nos.fork()\n"
                               "time.sleep(60)"])
    try:
        deadline = time.monotonic() + 60
        while len(cgroups.tree(parent.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        found = cgroups.of_container(parent.pid, "an id no group of theirs names")
        assert found.owned and sorted(found.pids()) == sorted(cgroups.tree(parent.pid))
        found.remove()
        assert parent.wait(timeout=60) == -9 and not found.folder.exists()
    finally:
        parent.kill()
        parent.wait()


def test_the_count_of_a_frozen_group_is_final_once_freeze_returns(group):
    """The kernel tells "frozen" once the last task has entered the freezer, before it
    has left its CPU, and counts that last stretch (microseconds) only when it leaves:
    on a busy machine (here, a crowd of busy processes outside the group) that is
    often after the group was read, which then looked frozen and was not yet."""
    crowd = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2 * os.cpu_count())]
    busy = [start_in(group, BUSY) for _ in range(2)]
    late = []
    try:
        for _ in range(50):
            group.thaw()
            time.sleep(0.002)
            group.freeze()
            frozen_at = group.cpu_seconds()
            time.sleep(0.01)
            if group.cpu_seconds() != frozen_at:
                late.append(group.cpu_seconds() - frozen_at)
    finally:
        group.kill()
        for process in crowd:
            process.kill()
        for process in crowd + busy:
            process.wait(timeout=60)
    assert late == [], (len(late), late[:5])


def test_a_freeze_that_does_not_happen_is_told(group, monkeypatch):
    monkeypatch.setattr(cgroups, "FREEZE_SECONDS", 0.1)
    monkeypatch.setattr(cgroups, "_left_cpu", lambda task: False)  # never leaves its CPU
    busy = start_in(group, BUSY)
    try:
        deadline = time.monotonic() + 60
        while not group.pids() and time.monotonic() < deadline:  # until it is in the group
            time.sleep(0.01)
        with pytest.raises(cgroups.Stuck, match="its control group was not frozen within 0.1 s"):
            group.freeze()
    finally:
        group.kill()
        busy.wait(timeout=60)
