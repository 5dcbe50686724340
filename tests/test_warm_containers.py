"""Warm containers kept per exercise and limits: made ahead of a queued job,
never more than asked for, kept side by side for the pairs in use, and
removed once a pair has gone unused."""

import time

import pytest
from conftest import solution

from grader import exercises, grading
from grader.sandbox import warm_pool
from grader.sandbox.docker import DockerSandbox


def settled(sandbox: DockerSandbox, seconds: float = 60) -> dict[str, int]:
    """The warm containers waiting per exercise, once no warm-up is making one."""
    deadline = time.monotonic() + seconds
    while any(t.is_alive() for t in sandbox.pool.warming):
        assert time.monotonic() < deadline, "a warm-up did not end"
        time.sleep(0.1)
    counts: dict[str, int] = {}
    for (exercise_id, _), _ in sandbox.pool.ready:
        counts[exercise_id] = counts.get(exercise_id, 0) + 1
    return counts


@pytest.fixture
def warm(docker_client):
    sandbox = DockerSandbox(docker_client, warm=2)
    yield sandbox
    sandbox.close()


def test_prepare_warms_a_pair_ahead_of_its_job_and_never_more_than_asked(warm):
    helpers = exercises.load("helpers")
    for _ in range(3):  # three hand-ins queued at once: their warm-ups overlap
        warm.prepare(helpers, helpers.limits)
    assert settled(warm) == {"helpers": 2}
    waiting = {running.container.id for _, running in warm.pool.ready}
    report = grading.grade(helpers, solution("helpers"), warm, helpers.limits)
    assert report["score"] == report["max_score"]
    assert settled(warm) == {"helpers": 2}
    used = waiting - {running.container.id for _, running in warm.pool.ready}
    assert len(used) == 1  # one was used


def test_two_exercises_keep_their_own_warm_containers(warm):
    helpers, decision = exercises.load("helpers"), exercises.load("decision")
    warm.prepare(helpers, helpers.limits)
    warm.prepare(decision, decision.limits)
    assert settled(warm) == {"helpers": 2, "decision": 2}
    report = grading.grade(helpers, solution("helpers"), warm, helpers.limits)
    assert report["score"] == report["max_score"]
    assert settled(warm) == {"helpers": 2, "decision": 2}  # a run of one leaves the other's


def test_a_pair_unused_for_long_loses_its_warm_containers(warm, docker_client, monkeypatch):
    from docker.errors import NotFound

    helpers, decision = exercises.load("helpers"), exercises.load("decision")
    warm.prepare(helpers, helpers.limits)
    assert settled(warm) == {"helpers": 2}
    old = [running.container for _, running in warm.pool.ready]
    monkeypatch.setattr(warm_pool, "STALE_SECONDS", 0)
    time.sleep(0.01)
    warm.prepare(decision, decision.limits)
    assert settled(warm) == {"decision": 2}
    for container in old:  # removed from the engine, not only forgotten
        with pytest.raises(NotFound):
            container.reload()
