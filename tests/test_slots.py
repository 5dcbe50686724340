"""Uids are slots, not draws: runs at once never share one (``grader.sandbox.slots``)."""

import multiprocessing
import os
from pathlib import Path

import pytest

from grader.contracts.run import SLOT_UIDS
from grader.harness.runtime import launcher
from grader.sandbox import bubblewrap, judges, slots

RUNS = 24  # runs at once; a draw from 30 uids would share one almost surely
# The uids of the tests' own folders of slots: none of the machine's runs use them.
SPARE = range(SLOT_UIDS.stop + 20000, SLOT_UIDS.stop + 21000)


def _hold(where: str | None, uids: range, barrier: "multiprocessing.synchronize.Barrier",
          said: "multiprocessing.Queue[int]") -> None:
    """A run's host: take a slot, say its uid, hold it until every run has one."""
    with slots.take(Path(where) if where else None, uids) as slot:
        said.put(slot.uid)
        barrier.wait(timeout=120)


def _many_at_once(where: str | None, uids: range) -> list[int]:
    context = multiprocessing.get_context("fork")
    barrier, said = context.Barrier(RUNS), context.Queue()
    hosts = [context.Process(target=_hold, args=(where, uids, barrier, said))
             for _ in range(RUNS)]
    for host in hosts:
        host.start()
    for host in hosts:
        host.join(timeout=180)
    assert all(host.exitcode == 0 for host in hosts)
    return [said.get(timeout=5) for _ in hosts]


def test_many_runs_at_once_share_no_uid(tmp_path: Path) -> None:
    """24 hosts take a slot of 30 at once and hold it: no uid is given twice."""
    uids = SPARE[:30]
    taken = _many_at_once(str(tmp_path), uids)
    assert len(set(taken)) == RUNS and set(taken) <= set(uids)


def test_the_machines_slots_share_no_uid() -> None:
    """The same in the machine's own slots' folder, over the whole range."""
    taken = _many_at_once(None, SLOT_UIDS)
    assert len(set(taken)) == RUNS and set(taken) <= set(SLOT_UIDS)


def test_a_held_slot_is_the_runs_until_released(tmp_path: Path) -> None:
    one = SPARE[:1]
    held = slots.take(tmp_path, one)
    with pytest.raises(slots.NoSlot):  # another open of the file: the same thread refused
        slots.take(tmp_path, one)
    held.release()
    with slots.take(tmp_path, one) as again:
        assert again.uid == held.uid


def test_a_forked_process_keeps_none_of_its_parent_s_slots(tmp_path: Path) -> None:
    """A host that forks (Celery's pool) and then frees a slot frees it, whatever
    the child still does."""
    one = SPARE[:1]
    held = slots.take(tmp_path, one)
    read, write = os.pipe()
    started, says = os.pipe()
    child = os.fork()
    if child == 0:  # lives on until the parent has taken the slot again
        os.close(write)
        os.write(says, b".")  # its fork's hooks have run
        os.read(read, 1)
        os._exit(0)
    os.close(read)
    os.close(says)
    os.read(started, 1)
    os.close(started)
    try:
        held.release()
        with slots.take(tmp_path, one) as again:
            assert again.uid == held.uid
    finally:
        os.close(write)
        os.waitpid(child, 0)


def test_a_uid_that_runs_a_process_is_passed_over(tmp_path: Path) -> None:
    """A slot whose lock is free but whose uid still runs a process (a killed host's
    container not yet swept) is not given."""
    ours = range(os.getuid(), os.getuid() + 1)  # this test runs as it
    with pytest.raises(slots.NoSlot):
        slots.take(tmp_path, ours)


def test_the_launcher_refuses_a_uid_not_of_the_runs() -> None:
    for uid in (0, launcher.GRADER_UID, 10002, SLOT_UIDS.stop, "70001", None):
        with pytest.raises(SystemExit):
            launcher.student_uid(uid)
    assert launcher.student_uid(SLOT_UIDS.start) == SLOT_UIDS.start


@pytest.mark.skipif(os.geteuid() != 0 or bubblewrap.command() is None,
                    reason="judges run as uids of their own only as root, in bubblewrap")
def test_judges_at_once_hold_uids_of_their_own() -> None:
    """Judges started at once (each serves one run at a time) run as distinct uids,
    each held while the judge lives and freed at its close."""
    started = [judges.Judge(judges.Kind()) for _ in range(4)]
    try:
        held = [judge.slot for judge in started]
        assert all(slot is not None for slot in held)
        uids = [slot.uid for slot in held if slot]
        assert len(set(uids)) == len(uids) and set(uids) <= set(SLOT_UIDS)
        for judge in started:
            judge.wait_ready()
            assert _uid_of_tree(judge.process.pid) >= {judge.uid}
    finally:
        for judge in started:
            judge.close()
    assert all(slot and slot.fd < 0 for slot in held)


def _uid_of_tree(root: int) -> set[int]:
    """The real uids of ``root``'s descendants."""
    children: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = set(), list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        found.add(int(status.split("Uid:", 1)[1].split()[0]))
    return found
