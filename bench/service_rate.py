"""The service's time to feedback at a steady arrival rate: hand-ins from
different students at 1, 2 and 3 a second, graded by ``serve``'s own pool in
the Docker sandbox, beside a bare container per hand-in at the same rate.

    python bench/service_rate.py [--rates 1,2,3] [--seconds 60] [--poll 0.05]
                                 [--workers 2] [--floor-seconds 30] [--deadline 300]
                                 [--grading docker|canned]

Each rate gets a fresh ``serve --sandbox docker --workers W`` on a free
loopback port with a temporary data folder, and a roster of one student per
hand-in, so that no student hands in twice and the queue's one-slot-a-student
rule never holds a job back. Every student's page is opened (its form's CSRF
token read) before the clock starts. Then the hand-ins arrive open-loop, one
every 1/rate seconds for ``--seconds``, whatever the service is doing: the
helpers solution and its corpus, correct and mistaken in turn, each made
unique. A hand-in's time to feedback runs from its POST to the answer of
the student's ``status.json`` (what the page's script asks to learn that its
report is there) that shows the attempt graded. The bench asks as the page
does: once, then naming what it saw (``since``), which the service answers
as soon as it changed; a service that answers at once is asked again every
``--poll`` seconds. Printed per rate: p50 and p95 of those times and of the
grading alone (serve's log says how long each job's took), the backlog
(hand-ins handed in and not yet reported) in the window's first and second
halves, whether it grew (the second half's mean more than one second's
arrivals above the first's), how long the last reports took after the
last hand-in, and the CPU time a hand-in cost the service's process (serve's,
read from /proc before the first hand-in and after the last report: the
upload, the queue, keeping the report, the status answers, and the grading's
host side, its containers' own CPU not included) and this process's students.

With ``--grading canned`` the service is this process's own, its grading
replaced by a report made once in Docker at the start, under uvicorn in a
thread: the time to feedback is then the service's own part (the upload,
the queue's hand-over to a grading slot, keeping the report, the status's
answer), measured the same way; its CPU a hand-in is then that of this
process's threads other than the students'.

The floor, taken just before each rate: bare containers of the same image
(``docker run --rm``, started, running ``python3 -c pass``, removed) arriving
at the same rate for ``--floor-seconds``, at most W at once as the pool's
slots: p50 and p95 from arrival to the container's end, the time to feedback
of a service that did nothing but start one fresh container per hand-in.
The service's p95 over the floor's is the ratio. Everything runs on this
machine's cores, the students' polling too; traffic goes to 127.0.0.1 only.
"""

import argparse
import asyncio
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import uvicorn
from common import ROOT
from service_load import CSRF, EXERCISE, Failed, class_files, free_port, open_exercise, percentile

from grader import exercises, grading
from grader.image import default_tag
from grader.service import app
from grader.service.core import Service
from grader.service.options import Options
from grader.service.pool import Pool

CLI = [sys.executable, "-m", "grader"]
START_SECONDS = 90  # for serve to say it is ready
STOP_SECONDS = 30  # for it to stop when asked, before it is killed
LINK = re.compile(r"^.* <.*>: http://127\.0\.0\.1:\d+/s/([\w-]+)$", re.M)
SECRET = re.compile(r"^the first instructor's login link.*/i/([\w-]+)$", re.M)
GRADED = re.compile(r"job \d+: graded in ([\d.]+) s")  # serve's log, a job's grading
WAITING = ("waiting",)  # an attempt's state on the student's page before its report


@dataclass
class Outcome:
    rate: float
    feedback: list[float] = field(default_factory=list)  # seconds, POST to report seen
    states: dict[str, int] = field(default_factory=dict)  # reports seen, by state
    errors: dict[str, int] = field(default_factory=dict)
    backlog: list[tuple[float, int]] = field(default_factory=list)  # (seconds in, count)
    drain: float | None = None  # seconds from the last hand-in to the last report
    late_posts: int = 0  # hand-ins the bench itself sent more than 0.1 s late
    grading: list[float] = field(default_factory=list)  # seconds, serve's own "graded in"
    load_before: float = 0.0
    service_cpu: float | None = None  # CPU seconds of the service's process, a hand-in
    students_cpu: float | None = None  # CPU seconds of the bench's students, a hand-in

    def count(self, table: dict[str, int], key: str) -> None:
        table[key] = table.get(key, 0) + 1


# -- the floor ----------------------------------------------------------------------------


async def bare_container(tag: str) -> None:
    process = await asyncio.create_subprocess_exec(
        "docker", "run", "--rm", "--network", "none", "--entrypoint", "python3", tag, "-c",
        "pass", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    await process.wait()


async def floor(rate: float, seconds: float, slots: int, tag: str) -> list[float]:
    """Seconds from each arrival to its bare container's end, at most ``slots`` at once."""
    gate = asyncio.Semaphore(slots)
    times: list[float] = []

    async def one(arrives: float) -> None:
        await asyncio.sleep(max(0.0, arrives - time.monotonic()))
        async with gate:
            await bare_container(tag)
        times.append(time.monotonic() - arrives)

    start = time.monotonic() + 0.5
    await asyncio.gather(*(one(start + n / rate) for n in range(round(rate * seconds))))
    return times


# -- the service --------------------------------------------------------------------------


def process_cpu(pid: int) -> float:
    """CPU seconds a process has used so far, all its threads (/proc's stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Serve:
    """``serve`` in a session of its own (the sandbox's children stop with it)."""

    def __init__(self, folder: Path, students: int, workers: int) -> None:
        self.port = free_port()
        self.log = folder / "serve.log"
        roster = folder / "roster.csv"
        roster.write_text("name,email\n" + "".join(
            f"Student {n},s{n}@example.edu\n" for n in range(students)), encoding="utf-8")
        command = [*CLI, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data",
                   str(folder / "data"), "--sandbox", "docker", "--roster", str(roster),
                   "--workers", str(workers)]
        # The checkout this bench is in, whichever one the interpreter has installed.
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                            cwd=folder, env=env, start_new_session=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ready(self) -> str:
        """serve's log once it listens (its roster links and instructor link in it)."""
        limit = time.monotonic() + START_SECONDS
        while True:
            text = self.log.read_text(errors="replace")
            if "Uvicorn running on" in text:
                return text
            if self.process.poll() is not None or time.monotonic() > limit:
                tail = "\n".join(text.splitlines()[-15:])
                raise Failed(f"serve did not get ready; the end of its log:\n{tail}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            print(f"    serve did not stop in {STOP_SECONDS} s: killed", flush=True)
        try:  # its group: the sandbox's processes too
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


async def csrf_of(client: httpx2.AsyncClient, token: str) -> str:
    page = await client.get(f"/s/{token}")
    found = CSRF.search(page.text)
    if found is None:
        raise Failed(f"a student's page: HTTP {page.status_code}")
    return found.group(1)


async def hand_in(client: httpx2.AsyncClient, token: str, csrf: str,
                  file: tuple[str, bytes], poll: float, outcome: Outcome) -> float | None:
    """POST the file and look at the student's status until its report is there:
    the seconds that took, or None on an error (counted)."""
    sent = time.monotonic()
    try:
        answer = await client.post(f"/s/{token}/submit/{EXERCISE}", data={"csrf": csrf},
                                   files=[("files", (file[0], file[1], "text/x-python"))])
    except httpx2.HTTPError as exc:
        outcome.count(outcome.errors, f"hand-in {type(exc).__name__}")
        return None
    if answer.status_code != 303:
        outcome.count(outcome.errors, f"hand-in HTTP {answer.status_code}")
        return None
    since = ""
    while True:
        try:
            status = (await client.get(f"/s/{token}/status.json",
                                       params={"since": since} if since else None)).json()
            states = list(status["attempts"].values())
        except (httpx2.HTTPError, ValueError, KeyError) as exc:
            outcome.count(outcome.errors, f"status {type(exc).__name__}")
            status, states = {}, []
        if states and all(state not in WAITING for state in states):
            outcome.count(outcome.states, states[0])
            return time.monotonic() - sent
        # As the page does: name what was seen, and the service answers once it changed;
        # a service that does not wait is asked again after ``poll``.
        if status.get("seen", "") == since:
            await asyncio.sleep(poll)
        since = status.get("seen", "")


async def arrivals(base: str, secret: str, tokens: list[str], files: list[tuple[str, bytes]],
                   poll: float, deadline: float, outcome: Outcome,
                   service_cpu: Callable[[], float]) -> None:
    """The hand-ins and their waits; ``service_cpu``: the CPU seconds the service
    has used so far (the students are this thread's)."""
    limits = httpx2.Limits(max_connections=64, keepalive_expiry=2)
    async with httpx2.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        await open_exercise(client, secret)
        csrfs = [await csrf_of(client, token) for token in tokens]
        outstanding = 0
        last_post = 0.0

        async def student(n: int, arrives: float) -> None:
            nonlocal outstanding, last_post
            await asyncio.sleep(max(0.0, arrives - time.monotonic()))
            if time.monotonic() - arrives > 0.1:
                outcome.late_posts += 1
            outstanding += 1
            last_post = time.monotonic()
            took = await hand_in(client, tokens[n], csrfs[n], files[n], poll, outcome)
            outstanding -= 1
            if took is not None:
                outcome.feedback.append(took)

        async def watch(start: float, seconds: float) -> None:
            while (now := time.monotonic()) < start + seconds:
                outcome.backlog.append((now - start, outstanding))
                await asyncio.sleep(0.5)

        start = time.monotonic() + 0.5
        window = len(tokens) / outcome.rate
        cpu_before = service_cpu(), time.thread_time()
        everyone = asyncio.gather(*(student(n, start + n / outcome.rate)
                                    for n in range(len(tokens))),
                                  watch(start, window))
        try:
            await asyncio.wait_for(everyone, deadline)
        except TimeoutError:
            outcome.count(outcome.errors, f"no report within the {deadline:.0f} s deadline")
            return
        outcome.drain = time.monotonic() - last_post
        outcome.service_cpu = (service_cpu() - cpu_before[0]) / len(tokens)
        outcome.students_cpu = (time.thread_time() - cpu_before[1]) / len(tokens)


def canned_report() -> grading.Report:
    """A correct hand-in's report, graded once in Docker."""
    exercise = exercises.load(EXERCISE)
    (name, data), = class_files(1)
    chosen = grading.isolated("docker")
    try:
        return grading.grade_taken(exercise, {name: data}, chosen, exercise.limits)
    finally:
        grading.close(chosen)


def run_canned(rate: float, args: argparse.Namespace, report: grading.Report) -> Outcome:
    """``run_rate`` with this process's service, whose grading hands back ``report``."""
    count = round(rate * args.seconds)
    outcome = Outcome(rate, load_before=os.getloadavg()[0])
    with tempfile.TemporaryDirectory(prefix="minimax-grader-rate-") as folder:
        service = Service(Options(Path(folder), workers=args.workers),
                          grade=lambda exercise, files: report)
        tokens = [token for _, token in service.students.import_roster(1, [
            (f"Student {n}", f"s{n}@example.edu") for n in range(count)])]
        secret = service.access.first_instructor_secret()
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(
            app.build(service, Pool(service, args.workers)), host="127.0.0.1", port=port,
            access_log=False, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            while not server.started:
                time.sleep(0.05)
            assert secret is not None  # a new service's first start
            # The service is this process's other threads: the students are the main one's.
            asyncio.run(arrivals(f"http://127.0.0.1:{port}", secret, list(map(str, tokens)),
                                 class_files(count), args.poll, args.deadline, outcome,
                                 lambda: time.process_time() - time.thread_time()))
        finally:
            server.should_exit = True
            thread.join(STOP_SECONDS)
            service.engine.dispose()
    return outcome


def run_rate(rate: float, args: argparse.Namespace) -> Outcome:
    count = round(rate * args.seconds)
    outcome = Outcome(rate, load_before=os.getloadavg()[0])
    with tempfile.TemporaryDirectory(prefix="minimax-grader-rate-") as folder:
        serve = Serve(Path(folder), count, args.workers)
        try:
            log = serve.ready()
            tokens = LINK.findall(log)
            secret = SECRET.search(log)
            if len(tokens) != count or secret is None:
                raise Failed(f"serve printed {len(tokens)} of {count} student links")
            asyncio.run(arrivals(serve.base, secret.group(1), tokens, class_files(count),
                                 args.poll, args.deadline, outcome,
                                 lambda: process_cpu(serve.process.pid)))
        finally:
            serve.stop()
            outcome.grading = [float(seconds) for seconds in GRADED.findall(
                serve.log.read_text(errors="replace"))]
    return outcome


# -- what is printed ----------------------------------------------------------------------


def spread(times: list[float]) -> str:
    if not times:
        return "no figures"
    return f"p50 {statistics.median(times):.2f} s, p95 {percentile(times, 0.95):.2f} s"


def backlog_halves(outcome: Outcome, seconds: float) -> tuple[float, float]:
    first = [n for at, n in outcome.backlog if at < seconds / 2] or [0]
    second = [n for at, n in outcome.backlog if at >= seconds / 2] or [0]
    return statistics.mean(first), statistics.mean(second)


def summary(outcome: Outcome, floor_times: list[float], seconds: float) -> str:
    first, second = backlog_halves(outcome, seconds)
    grew = second - first > outcome.rate
    states = ", ".join(f"{n} {state}" for state, n in sorted(outcome.states.items()))
    errors = ", ".join(f"{n} {kind}" for kind, n in sorted(outcome.errors.items()))
    lines = [f"  {outcome.rate:g}/s: service {spread(outcome.feedback)}"
             f"   |   bare container {spread(floor_times)}"]
    if outcome.grading:
        lines[0] += f"   |   the grading alone {spread(outcome.grading)}"
    if outcome.feedback and floor_times:
        times = percentile(outcome.feedback, 0.95) / percentile(floor_times, 0.95)
        lines[0] += f"   |   p95 {times:.2f}x the floor's"
    drain = f"{outcome.drain:.1f} s" if outcome.drain is not None else "never"
    lines.append(f"        backlog {first:.1f} then {second:.1f} hand-ins: "
                 f"{'GREW' if grew else 'steady'}; last report {drain} after the last "
                 f"hand-in; reports: {states or 'none'}; errors: {errors or 'none'}; "
                 f"{outcome.late_posts} sent late by the bench; load before "
                 f"{outcome.load_before:.1f}")
    if outcome.service_cpu is not None and outcome.students_cpu is not None:
        lines.append(f"        CPU a hand-in: the service's process "
                     f"{outcome.service_cpu * 1000:.0f} ms, the bench's students "
                     f"{outcome.students_cpu * 1000:.0f} ms")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="1,2,3", help="hand-ins a second, comma-separated")
    parser.add_argument("--seconds", type=float, default=60, help="how long hand-ins arrive")
    parser.add_argument("--poll", type=float, default=0.05, help=(
        "seconds between a waiting student's looks at a status that did not wait"))
    parser.add_argument("--workers", type=int, default=2, help="serve's grading slots")
    parser.add_argument("--floor-seconds", type=float, default=30,
                        help="how long bare containers arrive (0: no floor)")
    parser.add_argument("--deadline", type=float, default=300,
                        help="seconds a rate's hand-ins may take in all, after the start")
    parser.add_argument("--grading", choices=("docker", "canned"), default="docker", help=(
        "canned: the service's own part, its grading replaced by a report made once"))
    args = parser.parse_args()
    rates = [float(rate) for rate in args.rates.split(",") if rate.strip()]
    if not rates or min(rates) <= 0 or args.seconds <= 0 or args.poll <= 0:
        parser.error("rates, --seconds and --poll are positive")
    tag = default_tag()
    graded = "serve --sandbox docker" if args.grading == "docker" else \
        "this process's service, its grading a canned report"
    print(f"{EXERCISE} hand-ins, one per student, at {args.rates} a second for "
          f"{args.seconds:g} s; {graded}, {args.workers} slots; a status that does not wait "
          f"is asked again every {args.poll:g} s; {os.cpu_count()} cores; image {tag}",
          flush=True)
    report = canned_report() if args.grading == "canned" else None
    for rate in rates:
        floor_times = asyncio.run(floor(rate, args.floor_seconds, args.workers, tag)) \
            if args.floor_seconds else []
        try:
            outcome = run_canned(rate, args, report) if report else run_rate(rate, args)
        except Failed as why:
            print(f"  {rate:g}/s: could not be run: {why}", flush=True)
            continue
        print(summary(outcome, floor_times, args.seconds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
