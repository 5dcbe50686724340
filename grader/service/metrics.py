"""Prometheus metrics (prometheus-client), each process its own registry.

What a process does is counted where it happens: the reports it keeps (by
result), their time to feedback, the regrades it queues, the runs it retried
because the machine was too busy. A web process also reports, at each scrape,
the service's state from the database and the broker (``State``): the queue
by state and exercise, the scores for the LMS, the hosts seen. So ``serve``
alone shows it all, and with grading hosts each ``worker`` shows its gradings
(Prometheus adds them up).

A command's ``--metrics-port`` serves its registry (``grader.hosting.watch``).
"""

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any, Protocol

import redis
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from grader.hosting.hosts import Seen
from grader.service.logs import JobAttempt, seconds
from grader.service.models import JOB_STATES, SCORE_POST_STATES, Job, LtiScorePost, Submission

# Feedback comes in seconds when the queue is short, in many minutes when a class
# hands in at once: the buckets cover both.
FEEDBACK_BUCKETS = (1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600)
RETRIED_AFTER_LOAD = "retried_after_load"  # a run's outcome that is counted so


class Grading(Protocol):
    """What grades (the pool, or the dispatcher to the hosts): the hosts it sees."""

    def hosts_seen(self) -> list[Seen]: ...


class Metrics:
    """What this process counts (see the module's text)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.gradings = Counter(
            "minimax_grader_gradings", "Reports kept, by exercise and result (graded: a "
            "score was given; error: the grader failed and nothing was charged)",
            ["exercise", "result"], registry=self.registry)
        self.feedback = Histogram(
            "minimax_grader_time_to_feedback_seconds", "Seconds from a job's queuing "
            "(a hand-in, a regrade) to its report kept", ["exercise"],
            buckets=FEEDBACK_BUCKETS, registry=self.registry)
        self.regrades = Counter(
            "minimax_grader_regrades", "Submissions queued to be graded again",
            registry=self.registry)
        self.retried_after_load = Counter(
            "minimax_grader_runs_retried_after_load", "Grading runs ended by the wall "
            "clock's backstop while the machine was too busy: not charged, graded again",
            ["exercise"], registry=self.registry)
        self._state: State | None = None

    def ran(self, run: JobAttempt, outcome: str, now: datetime,
            report: dict[str, Any] | None) -> None:
        """Count a grading run that ended (see ``logs.JobAttempt.ended``)."""
        if outcome == RETRIED_AFTER_LOAD:
            self.retried_after_load.labels(run.exercise).inc()
        if report is not None:
            self.gradings.labels(run.exercise, report["status"]).inc()
            self.feedback.labels(run.exercise).observe(seconds(run.queued_at, now))

    def watch(self, sessions: sessionmaker[Session], exercises: Iterable[str],
              grading: Grading | None) -> None:
        """Report the service's state too (a web process's, once): its database's, and
        the hosts ``grading`` sees."""
        if self._state is None:
            self._state = State(sessions, list(exercises), grading)
            self.registry.register(self._state)


class State(Collector):
    """The service's state, read at each scrape from the database and the broker."""

    def __init__(self, sessions: sessionmaker[Session], exercises: list[str],
                 grading: Grading | None) -> None:
        self.sessions = sessions
        self.exercises = exercises
        self.grading = grading

    def collect(self) -> Iterator[Metric]:
        yield from self._jobs()
        yield from self._score_posts()
        if self.grading is not None:
            yield from self._hosts(self.grading)

    def _jobs(self) -> Iterator[Metric]:
        with self.sessions() as session:
            rows = session.execute(
                select(Job.state, Submission.exercise_id, func.count())
                .join(Submission, Submission.id == Job.submission_id)
                .group_by(Job.state, Submission.exercise_id)).all()
        counts = {(state, exercise): 0 for state in JOB_STATES
                  for exercise in self.exercises}
        counts.update({(state, exercise): count for state, exercise, count in rows})
        jobs = GaugeMetricFamily(
            "minimax_grader_jobs", "Jobs by state and exercise: waiting and running are "
            "the queue; done, error and replaced have ended", labels=["state", "exercise"])
        for (state, exercise), count in sorted(counts.items()):
            jobs.add_metric([state, exercise], count)
        yield jobs

    def _score_posts(self) -> Iterator[Metric]:
        with self.sessions() as session:
            rows = dict(session.execute(select(LtiScorePost.state, func.count())
                                        .group_by(LtiScorePost.state)).all())
            tries = session.scalar(select(func.sum(LtiScorePost.attempts))) or 0
        posts = GaugeMetricFamily(
            "minimax_grader_lti_score_posts", "Scores for the LMS by state: sent, waiting "
            "(to send, or to try again), failed (given up), superseded", labels=["state"])
        for state in SCORE_POST_STATES:
            posts.add_metric([state], rows.get(state, 0))
        yield posts
        # Every try of a post failed but the one that sent it.
        yield CounterMetricFamily(
            "minimax_grader_lti_score_post_failures", "Tries to send a score that the "
            "LMS refused or did not answer", value=tries - rows.get("sent", 0))

    def _hosts(self, grading: Grading) -> Iterator[Metric]:
        seen = GaugeMetricFamily(
            "minimax_grader_hosts_seen", "Grading hosts (worker) and match hosts "
            "(match-host) beating in the broker, by the grading image they have",
            labels=["kind", "image"])
        slots = GaugeMetricFamily("minimax_grader_host_slots", "Jobs or pairings the "
                                  "hosts seen take at once", labels=["kind"])
        try:
            found = grading.hosts_seen()
        except redis.RedisError:  # the broker is down: readiness says so; no hosts shown
            return
        counts: dict[tuple[str, str], int] = {}
        taken: dict[str, int] = {}
        for host in found:
            image = "none" if host.image.startswith("none") else host.image
            counts[host.kind, image] = counts.get((host.kind, image), 0) + 1
            taken[host.kind] = taken.get(host.kind, 0) + host.slots
        for (kind, image), count in sorted(counts.items()):
            seen.add_metric([kind, image], count)
        for kind, count in sorted(taken.items()):
            slots.add_metric([kind], count)
        yield seen
        yield slots
