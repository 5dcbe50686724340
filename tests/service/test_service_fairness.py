"""Fair queueing: round robin over students, one grading slot per student, a newer
hand-in replacing one that waits, a storage quota per student, and request
bodies that stall cut off. Queue order is checked on the Service itself; the
HTTP parts on a real uvicorn server on 127.0.0.1 (in this process, so that its
grading can be held by the test) and on ``serve`` itself."""

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator

import httpx2
import pytest
import uvicorn
from alembic import command
from alembic.config import Config
from sqlalchemy import select, text

from grader import intake, report
from grader.exercises import Exercise
from grader.layouts import LAYOUTS
from grader.service import app, db
from grader.service.core import Service
from grader.service.models import ExerciseSetting, Job
from grader.service.pages import REPLACED
from grader.service.pool import Pool
from tests.service.conftest import NAME, ROOT
from tests.service.postgres_server import free_port, until
from tests.service.test_service_faults import HTTP_SECONDS, server  # noqa: F401

pytestmark = pytest.mark.timeout(150)  # every wait below is bounded well within it
FLOODER, ADA, BOB = ("Flo", "flo@example.edu"), ("Ada", "ada@example.edu"), ("Bob",
                                                                             "bob@example.edu")
CLOSED_WITHIN = 30  # seconds: a cut-off connection is closed long before this


def graded(score: float = 10.0) -> dict:
    """A schema-shaped report with ``score``: the grading these tests stand in for."""

    def made(exercise: Exercise, files: dict[str, bytes]) -> dict:
        body = report.grader_error(exercise, intake.Submission(files), "a test's grading",
                                   LAYOUTS["none"], exercise.limits.facts())
        body.update(status="graded", score=score)
        return body

    return made


def recording(order: list[bytes], hold: threading.Event | None = None) -> Callable:
    """A grade function noting each submission's bytes in ``order``; a flooder's file
    (one with "flood" in it) does not return while ``hold`` is unset."""

    def grade(exercise: Exercise, files: dict[str, bytes]) -> dict:
        data = files[NAME]
        order.append(data)
        if hold is not None and b"flood" in data:
            assert hold.wait(60), "the test never let the flooder's grading end"
        return graded()(exercise, files)

    return grade


def submit(site, student: int, data: bytes, exercise: str = "helpers") -> int:
    return site.service.jobs.submit(student, exercise, intake.Submission({NAME: data}))


def ids(site, *people: tuple[str, str]) -> list[int]:
    return [student.id for student, _ in site.service.students.import_roster(1, people)]


def graded_by(site, job_id: int) -> int:
    """The submission job ``job_id`` grades now."""
    with site.service.sessions() as session:
        return session.scalar(select(Job.submission_id).where(Job.id == job_id))


def test_a_database_of_the_first_schema_keeps_its_rows_at_the_upgrade(tmp_path):
    """The fair queue's columns are added to the tables as they are: a student is at
    the first turn, a submission replaced by none."""
    engine = db.connect(db.sqlite_url(tmp_path))
    config = Config()
    config.set_main_option("script_location", str(ROOT / "grader" / "service" / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(text("INSERT INTO students VALUES (1, 'Ada', 'a@x', 'h', '2026-01-01')"))
        connection.execute(text("INSERT INTO submissions VALUES (1, 1, 'helpers', '2026-01-01', "
                                "0, 'd')"))
    db.migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT served FROM students")).all() == [(0,)]
        assert connection.execute(text("SELECT replaced_by FROM submissions")).all() == [(None,)]
    engine.dispose()


# -- the order jobs are taken in ---------------------------------------------------


def test_jobs_are_taken_round_robin_over_students_not_oldest_first(make):
    order: list[bytes] = []
    site = make(grade=recording(order))
    flo, ada, bob = ids(site, FLOODER, ADA, BOB)
    exercises = list(site.service.exercises)[:4]
    for exercise in exercises:  # one waiting job per exercise: four in all
        submit(site, flo, b"flo " + exercise.encode(), exercise)
    for exercise in exercises[:2]:
        submit(site, ada, b"ada " + exercise.encode(), exercise)
    submit(site, bob, b"bob")
    assert site.service.jobs.drain() == 7
    # Oldest first would be flo x4, ada x2, bob: each student waits one turn at most.
    assert [data.split()[0] for data in order] == [b"flo", b"ada", b"bob", b"flo", b"ada",
                                                   b"flo", b"flo"]


def test_a_student_holds_one_grading_slot_at_a_time(make):
    site = make(grade=graded())
    flo, ada = ids(site, FLOODER, ADA)
    first = submit(site, flo, b"flood 1", "helpers")
    second = submit(site, flo, b"flood 2", "decision")
    taken = site.service.queue.claim()
    assert graded_by(site, taken) == first
    assert site.service.queue.claim() is None  # the second waits while the first runs
    mine = submit(site, ada, b"ada")
    assert graded_by(site, site.service.queue.claim()) == mine
    site.service.jobs.run(taken)
    assert graded_by(site, site.service.queue.claim()) == second


def test_agents_matches_never_hold_every_grading_slot(make):
    """Three workers: the agents' matches (minutes each) hold two slots at most, so the
    third grades an exercise's hand-in however many agents wait."""
    site = make(grade=graded(), workers=3)
    assert site.service.queue.played == {"agent"} and site.service.queue.play_slots == 2
    flo, ada, bob, cy = ids(site, FLOODER, ADA, BOB, ("Cy", "cy@example.edu"))
    agents = [submit(site, who, b"agent", "agent") for who in (flo, ada, bob)]
    taken = [site.service.queue.claim(), site.service.queue.claim()]
    assert [graded_by(site, job) for job in taken] == agents[:2]
    assert site.service.queue.claim() is None  # Bob's agent waits: two matches play
    helpers = submit(site, cy, b"cy")
    assert graded_by(site, site.service.queue.claim()) == helpers
    site.service.jobs.run(taken[0])  # a match ends: the next agent plays
    assert graded_by(site, site.service.queue.claim()) == agents[2]


def test_a_grading_host_handed_a_job_grades_the_fairest_and_waits_for_a_turn(make):
    """Hosts are handed job ids oldest first (Celery): the id is a place in the queue,
    given the submission ``claim`` would take; with nothing fair to take, it waits."""
    site = make(grade=graded())
    flo, ada = ids(site, FLOODER, ADA)
    first = submit(site, flo, b"flood 1", "helpers")
    second = submit(site, flo, b"flood 2", "decision")
    mine = submit(site, ada, b"ada")
    service = site.service
    assert service.queue.take(1, "waiting", "running") and graded_by(site, 1) == first
    assert service.queue.take(2, "waiting", "running") and graded_by(site, 2) == mine
    assert graded_by(site, 3) == second and service.queue.state(3) == "waiting"
    result: list[bool] = []
    host = threading.Thread(
        target=lambda: result.append(service.queue.take(3, "waiting", "running")))
    host.start()
    host.join(1.0)
    assert service.queue.state(3) == "waiting"  # Flo's first still runs: the host waits
    assert service.queue.take(1, "waiting", "running")  # sent again (its host died): graded again
    with service.sessions() as session:
        assert session.get(Job, 1).attempts == 2
    service.jobs.run(1)
    host.join(30)
    assert result == [True] and service.queue.state(3) == "running" and graded_by(site, 3) == second
    assert not service.queue.take(1, "waiting", "running")  # done: a copy sent again is dropped


# -- a newer hand-in replaces a waiting one ----------------------------------------


def test_a_newer_hand_in_replaces_the_waiting_one_and_says_so(make):
    site = make(grade=graded(7.0))
    [token] = site.enrol(ADA)
    for number in range(3):
        assert site.hand_in(token, (NAME, b"# attempt %d\n" % number)).status_code == 303
    counts = site.service.queue.counts()
    assert (counts["waiting"], counts["replaced"]) == (1, 2)
    page = site.client.get(f"/s/{token}").text
    assert page.count(REPLACED) == 2 and page.count('<tr class="replaced"') == 2
    assert REPLACED in site.client.get(f"/s/{token}/attempts/1").text
    assert not site.service.queue.take(1, "waiting", "running")  # a replaced job is not graded
    assert site.service.jobs.drain() == 1
    assert '<strong class="counted">7/10</strong>' in site.client.get(f"/s/{token}").text
    gradebook = site.login().get("/i/c/1/students/1").text
    assert gradebook.count(REPLACED) == 2 and "7/10" in gradebook
    # A replaced attempt is never graded later.
    assert site.service.jobs.regrade(1, "helpers").queued == 0

    # A job being graded is not replaced: both attempts are graded.
    site.hand_in(token, (NAME, b"# attempt 3\n"))
    running = site.service.queue.claim()
    site.hand_in(token, (NAME, b"# attempt 4\n"))
    site.service.jobs.run(running)
    assert site.service.jobs.drain() == 1
    assert site.service.queue.counts()["done"] == 3


def test_a_late_hand_in_does_not_replace_one_made_in_time(make):
    site = make(grade=graded())
    clock = site.clock
    site.service.term.save_setting(ExerciseSetting(
        course_id=1, exercise_id="helpers", deadline=clock.now,
        hard_deadline=clock.now.replace(hour=14),
        late_penalty=0.5, min_minutes=0.0, score_rule="best"))
    [ada] = ids(site, ADA)
    clock.advance(minutes=-1)
    submit(site, ada, b"# in time")
    clock.advance(minutes=2)
    submit(site, ada, b"# late")
    submit(site, ada, b"# later")
    assert site.service.queue.counts()["waiting"] == 2  # in time, and the last late one
    assert [s.replaced_by for s in site.service.students.attempts(ada)] == [None, 3, None]


# -- the storage quota ---------------------------------------------------------------


def test_a_hand_in_past_the_students_quota_is_refused_and_nothing_is_stored(make):
    site = make(grade=graded(), student_quota=3000)
    ada, bob = site.enrol(ADA, BOB)
    kept = b"#" * 2000
    assert site.hand_in(ada, (NAME, kept)).status_code == 303
    assert site.hand_in(ada, (NAME, kept)).status_code == 303  # the same file counts once
    refused = site.hand_in(ada, (NAME, b"%" * 2000))
    assert refused.status_code == 413
    assert "storage quota of 2 KB" in refused.text and "Nothing was stored" in refused.text
    assert site.count("submissions") == 2 and site.service.store.count() == 1
    assert site.hand_in(bob, (NAME, b"%" * 2000)).status_code == 303  # a quota is one's own


# -- over HTTP, on a real server -----------------------------------------------------


class Live:
    """uvicorn serving ``asgi`` on a free loopback port, in a thread of this process."""

    def __init__(self, asgi) -> None:
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(asgi, host="127.0.0.1", port=self.port,
                                                    access_log=False, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "Live":
        self.thread.start()
        until(lambda: self.server.started, 30, "uvicorn listens")
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def hand_in(self, token: str, data: bytes) -> httpx2.Response:
        page = httpx2.get(f"{self.url}/s/{token}", timeout=HTTP_SECONDS).text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf, page
        return httpx2.post(f"{self.url}/s/{token}/submit/helpers", data={"csrf": csrf[1]},
                           files=[("files", (NAME, data, "text/x-python"))],
                           timeout=HTTP_SECONDS)

    def rows(self, token: str) -> list[str]:
        """The states of the student's attempts at helpers, newest first."""
        page = httpx2.get(f"{self.url}/s/{token}", timeout=HTTP_SECONDS).text
        section = re.search(r'<section id="helpers">(.*?)</section>', page, re.S)
        assert section, page
        return re.findall(r'<tr class="(\w+)"', section[1])


@pytest.fixture
def live(make) -> Iterator[Callable[..., tuple[Live, Service, list[str]]]]:
    """``live(grade, workers, **options)``: a live server with its pool, and the
    tokens of Flo, Ada and Bob."""
    opened: list[Live] = []

    def start(grade: Callable, workers: int = 2, **options) -> tuple[Live, Service, list[str]]:
        site = make(grade=grade, **options)
        tokens = site.enrol(FLOODER, ADA, BOB)
        opened.append(Live(app.build(site.service, Pool(site.service, workers))).__enter__())
        return opened[-1], site.service, tokens

    yield start
    for server_ in opened:
        server_.__exit__()


def test_a_flooder_delays_another_student_by_one_slot_at_most(live):
    order: list[bytes] = []
    hold = threading.Event()
    server_, service, (flo, ada, _) = live(recording(order, hold), workers=1)
    assert server_.hand_in(flo, b"# flood 0\n").status_code == 303
    until(lambda: order, 30, "the only slot grades a file that does not return")
    for number in range(1, 6):
        assert server_.hand_in(flo, b"# flood %d\n" % number).status_code == 303
    assert server_.hand_in(ada, b"# ada\n").status_code == 303
    # Newest first: the last waits, four were replaced, the first is being graded.
    assert server_.rows(flo) == ["waiting"] + ["replaced"] * 4 + ["waiting"]
    hold.set()
    until(lambda: service.queue.counts()["done"] == 3, 60, "the three jobs graded")
    assert order == [b"# flood 0\n", b"# ada\n", b"# flood 5\n"]


def test_a_flooder_holds_one_slot_and_another_student_is_graded_at_once(live):
    hold = threading.Event()
    server_, service, (flo, ada, bob) = live(recording([], hold), workers=2)
    try:
        for number in range(6):
            assert server_.hand_in(flo, b"# flood %d\n" % number).status_code == 303
        for token in (ada, bob):
            assert server_.hand_in(token, b"# mine\n").status_code == 303
        until(lambda: server_.rows(ada) == ["graded"] and server_.rows(bob) == ["graded"], 60,
              "Ada's and Bob's reports on their pages while the flooder's file runs")
        counts = service.queue.counts()
        assert (counts["running"], counts["waiting"], counts["replaced"]) == (1, 1, 4)
    finally:
        hold.set()


def _read_until_closed(connection: socket.socket, trickle: bytes = b"") -> tuple[bytes, float]:
    """What the server sends until it closes the connection (sending ``trickle`` a
    byte at a time meanwhile), and the seconds that took; fails past CLOSED_WITHIN."""
    started = time.monotonic()
    received = b""
    connection.settimeout(0.3)
    while time.monotonic() - started < CLOSED_WITHIN:
        try:
            if trickle:
                connection.sendall(trickle[:1])
                trickle = trickle[1:]
            chunk = connection.recv(65536)
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):  # closed while we still sent
            return received, time.monotonic() - started
        if not chunk:
            return received, time.monotonic() - started
        received += chunk
    raise AssertionError(f"the connection was still open after {CLOSED_WITHIN} s")


def _post_head(token: str, length: int) -> bytes:
    return (f"POST /s/{token}/submit/helpers HTTP/1.1\r\nHost: x\r\nContent-Type: "
            f"multipart/form-data; boundary=b\r\nContent-Length: {length}\r\n\r\n").encode()


def test_a_stalled_body_is_cut_off_by_serve(server):  # noqa: F811
    site = server().start(roster=True)
    with socket.create_connection(("127.0.0.1", site.port), timeout=10) as raw:
        raw.sendall(_post_head(site.tokens["Ada"], 10_000) + b"--b\r\n")  # and then nothing
        answer, seconds = _read_until_closed(raw)
    assert answer.startswith(b"HTTP/1.1 408") and b"too slow" in answer, answer[:300]
    print(f"a stalled body was cut off after {seconds:.1f} s")
    assert site.count("submissions") == 0 and site.stored() == []


def test_a_trickled_body_is_cut_off_at_its_deadline(live):
    server_, service, (flo, _, _) = live(graded(), body_seconds=2.0)
    with socket.create_connection(("127.0.0.1", server_.port), timeout=10) as raw:
        raw.sendall(_post_head(flo, 10_000))
        answer, _ = _read_until_closed(raw, trickle=b"-" * 10_000)  # a byte each 0.3 s
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer[:300]
    assert service.students.attempts(1) == [] and service.store.count() == 0
    # A page that never reads the body it was sent closes the connection after it.
    with socket.create_connection(("127.0.0.1", server_.port), timeout=10) as raw:
        raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 10000\r\n\r\n")
        answer, _ = _read_until_closed(raw, trickle=b"-" * 10_000)
    assert answer.startswith(b"HTTP/1.1 200") and b"connection: close" in answer.lower()
