"""What an operator watches, in-process: /healthz and /readyz, the metrics'
names and values after a few gradings, and the log lines of requests and jobs."""

import argparse
import copy
import io
import json
import logging
import threading
import time

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from grader import report
from grader.hosting import hosts, watch
from grader.layouts import LAYOUTS
from grader.sandbox import Run
from grader.service import app, core, db, health, logs, operations, tasks
from grader.service.dispatch import Dispatcher
from grader.service.models import Job, LtiContext, LtiPlatform, LtiResource, LtiScorePost
from grader.service.pool import Pool
from grader.service.queue import MAX_ATTEMPTS
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, Clock
from tests.service.redis_server import RedisServer
from tests.service.test_service_celery import redis_server  # noqa: F401  (its fixture)

WRAPPED = LAYOUTS["bubblewrap"]  # the layout of the runs these reports stand for


def parsed(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Metrics as Prometheus reads them: (name, sorted labels) -> value."""
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def samples(service: core.Service) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The service's metrics, as a scrape would find them."""
    return parsed(generate_latest(service.metrics.registry).decode())


STARVED = "a run the machine starved"


def grading(graded: dict, clock, seconds: float, outcomes: list):
    """A grade function whose run takes ``seconds`` of the service's clock and gives
    the next of ``outcomes`` (a path's real report, STARVED's, or an exception to raise)."""
    def grade(exercise, files):
        clock.advance(seconds=seconds)
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        if outcome == STARVED:
            return report.build(exercise, None, Run(backend="local", overloaded=True,
                                                    limits=exercise.limits.facts()), 1, WRAPPED)
        return copy.deepcopy(graded[outcome])

    return grade


# -- health and readiness --------------------------------------------------------------


def test_healthz_answers_and_readyz_checks_everything_the_pool_needs(make, tmp_path):
    site = make()
    with TestClient(app.build(site.service, Pool(site.service, 1))) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        said = ready.json()
        assert said["ready"] is True
        assert set(said["checks"]) == {"database", "store", "image", "broker", "slots"}
        assert said["checks"]["slots"] == {"ok": True,
                                           "detail": "1 of 1 grading slot(s) running"}
        assert said["checks"]["database"]["detail"] == "sqlite answers"
        # A store that takes no file (its folder gone, as a lost mount) and a database
        # that does not answer: not ready, said without a path or a URL.
        site.service.store.root = tmp_path / "gone" / "files"
        site.service.engine = db.connect(db.sqlite_url(tmp_path / "gone"))
        broken = client.get("/readyz")
    assert broken.status_code == 503
    checks = broken.json()["checks"]
    assert checks["store"] == {"ok": False, "detail": "the store takes no file "
                                                      "(FileNotFoundError)"}
    assert checks["database"] == {"ok": False, "detail": "the database does not answer "
                                                         "(OperationalError)"}
    assert str(tmp_path) not in broken.text


def test_readyz_is_not_ready_where_nothing_grades(make):
    said = make().client.get("/readyz")
    assert said.status_code == 503
    assert said.json()["checks"]["slots"] == {"ok": False,
                                              "detail": "nothing grades in this process"}


def test_readyz_answers_in_time_when_a_check_hangs(make, monkeypatch):
    release = threading.Event()

    def hanging(service):
        release.wait(30)
        return health.Check(True, "late")

    monkeypatch.setattr(health, "CHECK_SECONDS", 0.5)
    monkeypatch.setattr(health, "store", hanging)
    site = make()
    try:
        started = time.monotonic()
        said = site.client.get("/readyz")
        took = time.monotonic() - started
    finally:
        release.set()
    assert said.json()["checks"]["store"] == {"ok": False,
                                              "detail": "no answer within 0.5 s"}
    assert took < 10  # 0.5 s and the other checks; wide for a loaded machine


def test_readyz_with_grading_hosts_counts_those_with_the_image(make, redis_server):  # noqa: F811
    site = make(broker=redis_server.url)
    dispatcher = Dispatcher(site.service, redis_server.url)
    client = hosts.client(redis_server.url)
    client.flushall()
    assert dispatcher.grading()["image"] == health.Check(
        False, f"no grading host has the grading image {tasks.expected_image()}")
    beacons = [hosts.Beacon(client, "grading", name, lambda image=image: {
                   "image": image, "slots": 3}).start()
               for name, image in (("new", tasks.expected_image()), ("old", "minimax:0@0"))]
    beacons.append(hosts.Beacon(client, "match", "m", lambda: {"image": "local",
                                                               "slots": 2}).start())
    try:
        checks = dispatcher.grading()
        assert checks["image"] == health.Check(
            True, f"1 grading host(s) have the grading image {tasks.expected_image()}; "
                  "1 host(s) have another or none")
        assert checks["slots"] == health.Check(True, "3 grading slot(s) on the hosts")
        assert checks["broker"] == health.Check(True, "the broker answers")
        site.service.metrics.watch(site.service.sessions, site.service.exercises, dispatcher)
        seen = samples(site.service)
        assert seen["minimax_grader_hosts_seen", (("image", tasks.expected_image()),
                                                  ("kind", "grading"))] == 1
        assert seen["minimax_grader_hosts_seen", (("image", "minimax:0@0"),
                                                  ("kind", "grading"))] == 1
        assert seen["minimax_grader_host_slots", (("kind", "grading"),)] == 6
        assert seen["minimax_grader_host_slots", (("kind", "match"),)] == 2
    finally:
        for beacon in beacons:
            beacon.stop()
    assert hosts.seen(client) == []  # a host that stops says so at once


def test_readyz_says_the_broker_is_down_without_its_url(make, tmp_path):
    down = RedisServer(tmp_path)  # never started: nothing listens on its port
    url = f"redis://:hunter2@127.0.0.1:{down.port}/0"
    checks = Dispatcher(make(broker=url).service, url).grading()
    assert checks["broker"] == health.Check(False, "the broker does not answer "
                                                   "(ConnectionError)")
    assert not checks["image"].ok and not checks["slots"].ok


# -- metrics -------------------------------------------------------------------------------


def test_the_metrics_after_a_few_gradings(make, graded):
    clock = Clock()
    outcomes: list = [FULL_MARKS, FLIPPED, STARVED, FULL_MARKS, FULL_MARKS]
    site = make(grade=grading(graded, clock, 4, outcomes), clock=clock)
    site.service.metrics.watch(site.service.sessions, site.service.exercises, None)
    ada, bob = site.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.hand_in(bob, (NAME, FLIPPED.read_bytes()))
    site.clock.advance(seconds=6)  # the jobs wait 6 s, then are graded in 4 s each
    assert site.service.jobs.drain() == 2
    seen = samples(site.service)
    assert seen["minimax_grader_jobs", (("exercise", "helpers"), ("state", "done"))] == 2
    assert seen["minimax_grader_jobs", (("exercise", "helpers"), ("state", "waiting"))] == 0
    assert seen["minimax_grader_gradings_total", (("exercise", "helpers"),
                                                  ("result", "graded"))] == 2
    # 6 + 4 s for the first, 6 + 4 + 4 for the second (it waited for the first)
    assert seen["minimax_grader_time_to_feedback_seconds_sum", (("exercise", "helpers"),)] == 24
    assert seen["minimax_grader_time_to_feedback_seconds_bucket", (("exercise", "helpers"),
                                                                   ("le", "10.0"))] == 1
    assert seen["minimax_grader_time_to_feedback_seconds_bucket", (("exercise", "helpers"),
                                                                   ("le", "20.0"))] == 2

    assert seen["minimax_grader_regrades_total", ()] == 0
    site.service.jobs.regrade(1, "helpers", force=True)  # one run ended by load, then graded
    seen = samples(site.service)
    assert seen["minimax_grader_regrades_total", ()] == 2
    assert seen["minimax_grader_jobs", (("exercise", "helpers"), ("state", "waiting"))] == 2
    site.service.jobs.drain()
    seen = samples(site.service)
    assert seen["minimax_grader_runs_retried_after_load_total", (("exercise", "helpers"),)] == 1
    assert seen["minimax_grader_gradings_total", (("exercise", "helpers"),
                                                  ("result", "graded"))] == 4
    assert seen["minimax_grader_jobs", (("exercise", "helpers"), ("state", "done"))] == 4
    with site.service.sessions() as session:  # the run ended by load was tried again
        assert sorted(job.attempts for job in session.query(Job)) == [1, 1, 1, 2]


def test_the_metrics_count_grader_errors_and_the_scores_for_the_lms(make, graded):
    clock = Clock()
    broken = [RuntimeError("grader bug")] * MAX_ATTEMPTS
    site = make(grade=grading(graded, clock, 1, broken), clock=clock)
    [ada] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(ada, (NAME, FULL_MARKS.read_bytes()))
    site.service.jobs.drain()
    [student] = site.service.students.of_course(1)
    now = site.clock()
    with site.service.sessions.begin() as session:
        platform = LtiPlatform(issuer="https://lms.example.edu", client_id="c",
                               deployment_ids='["d"]', key_set_url="k", auth_login_url="a",
                               auth_token_url="t")
        session.add(platform)
        session.flush()
        context = LtiContext(platform_id=platform.id, course_id=1, context_id="course",
                             deployment_id="d", title="AI")
        session.add(context)
        session.flush()
        resource = LtiResource(context_id=context.id, resource_link_id="r",
                               exercise_id="helpers")
        session.add(resource)
        session.flush()
        session.add_all(LtiScorePost(resource_id=resource.id, student_id=student.id,
                                     score_given=1, score_maximum=10, state=state,
                                     attempts=attempts, created_at=now, next_try_at=now)
                        for state, attempts in (("sent", 2), ("failed", 5), ("waiting", 1)))
    site.service.metrics.watch(site.service.sessions, site.service.exercises, None)
    seen = samples(site.service)
    assert seen["minimax_grader_gradings_total", (("exercise", "helpers"),
                                                  ("result", "error"))] == 1
    assert seen["minimax_grader_jobs", (("exercise", "helpers"), ("state", "error"))] == 1
    assert seen["minimax_grader_lti_score_posts", (("state", "sent"),)] == 1
    assert seen["minimax_grader_lti_score_posts", (("state", "failed"),)] == 1
    assert seen["minimax_grader_lti_score_posts", (("state", "superseded"),)] == 0
    # 8 tries, one of which sent its score
    assert seen["minimax_grader_lti_score_post_failures_total", ()] == 7


# -- logs ----------------------------------------------------------------------------------


def test_one_line_per_request_and_per_job_with_no_link_in_them(make, graded, caplog):
    caplog.set_level(logging.INFO, logger="grader.service")
    clock = Clock()
    site = make(grade=grading(graded, clock, 3, [FULL_MARKS]), clock=clock)
    [token] = site.enrol(("Ada", "ada@example.edu"))
    site.hand_in(token, (NAME, FULL_MARKS.read_bytes()))
    site.clock.advance(seconds=2)
    site.service.jobs.drain()
    site.client.get(f"/i/{site.secret}")
    [student] = site.service.students.of_course(1)
    requests = [record for record in caplog.records if getattr(record, "event", "") == "request"]
    routes = [(record.method, record.route, record.status) for record in requests]
    assert routes == [("GET", "/s/{token}", 200), ("POST", "/s/{token}/submit/{exercise}", 303),
                      ("GET", "/i/{secret}", 303)]
    hand_in = requests[1]
    assert (hand_in.student_id, hand_in.exercise) == (student.id, "helpers")
    assert hand_in.ms >= 0
    [job] = [record for record in caplog.records if getattr(record, "event", "") == "job"]
    assert {key: getattr(job, key) for key in (
        "job_id", "student_id", "exercise", "attempt", "outcome", "status", "score",
        "waited_s", "graded_s", "feedback_s")} == {
        "job_id": 1, "student_id": student.id, "exercise": "helpers", "attempt": 1,
        "outcome": "done", "status": "graded", "score": 10, "waited_s": 2.0,
        "graded_s": 3.0, "feedback_s": 5.0}
    assert job.getMessage().startswith("job job_id=1 student_id=")
    for record in caplog.records:
        shown = record.getMessage() + json.dumps(vars(record), default=str)
        assert token not in shown and site.secret not in shown


def test_json_lines_hold_the_facts_as_fields(make, graded):
    formatter = watch.formatter("json")  # as --log-format json sets it up
    clock = Clock()
    site = make(grade=grading(graded, clock, 1, [FLIPPED]), clock=clock)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(formatter)
    logger = logging.getLogger("grader.service")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        [token] = site.enrol(("Ada", "ada@example.edu"))
        site.hand_in(token, (NAME, FLIPPED.read_bytes()))
        site.service.jobs.drain()
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    lines = written.getvalue().splitlines()
    said = [json.loads(line) for line in lines]
    [job] = [each for each in said if each.get("event") == "job"]
    assert job["level"] == "INFO" and job["logger"] == "grader.service"
    assert (job["outcome"], job["status"], job["exercise"]) == ("done", "graded", "helpers")
    assert job["score"] < job["max_score"] == 10
    assert "time" in job and "student_id" in job
    assert all(token not in line for line in lines)


@pytest.mark.parametrize("route", ["/s/{token}/attempts/{attempt:int}", "/i/{secret}"])
def test_a_routes_credentials_are_never_among_its_logged_parameters(route):
    from starlette.routing import Route

    async def endpoint(request):  # never called: only matched
        raise AssertionError

    requests = logs.Requests(app=None, routes=[Route(route, endpoint)])  # type: ignore
    path = route.replace("{token}", "T0KEN").replace("{secret}", "S3CRET").replace(
        "{attempt:int}", "7")
    template, params = requests._route({"type": "http", "path": path, "method": "GET"})
    assert template == route
    assert "T0KEN" not in json.dumps(params) and "S3CRET" not in json.dumps(params)


# -- the commands' flags and status -------------------------------------------------------


def test_metrics_are_served_on_loopback_only_unless_told_and_urls_come_from_the_environment(
        monkeypatch):
    from grader import cli

    monkeypatch.delenv(watch.BROKER, raising=False)
    monkeypatch.delenv(operations.DATABASE, raising=False)
    for command in (["serve"], ["worker", "--broker", "redis://b", "--database", "sqlite://"],
                    ["match-host", "--broker", "redis://b"]):
        args = cli.parser().parse_args(command)
        assert (args.metrics_host, args.metrics_port, args.log_format) == (
            "127.0.0.1", None, "text")
    with pytest.raises(SystemExit):  # a worker needs a broker: a flag or the environment
        cli.parser().parse_args(["worker", "--database", "sqlite://"])
    monkeypatch.setenv(watch.BROKER, "rediss://:pw@broker:6380/0")
    monkeypatch.setenv(operations.DATABASE, "postgresql://grader:pw@db/grader")
    args = cli.parser().parse_args(["worker"])
    assert (args.broker, args.database) == ("rediss://:pw@broker:6380/0",
                                            "postgresql://grader:pw@db/grader")
    assert cli.parser().parse_args(["serve", "--broker", "redis://other"]).broker == \
        "redis://other"


def test_status_says_when_the_service_does_not_answer(capsys):
    from tests.service.postgres_server import free_port

    url = f"http://127.0.0.1:{free_port()}"
    assert operations.cmd_status(argparse.Namespace(url=url)) == 2
    assert capsys.readouterr().out.startswith(f"{url}: no answer (URLError")
