"""Load the web service as a class would: simulated students hand in through
their pages and wait for their reports, with the service's local grading pool
and with one and two Celery workers, in one run on this machine.

    python bench/service_load.py [--students 50] [--files 200]
                                 [--modes local,celery1,celery2] [--poll 1] [--deadline 600]
                                 [--workers 2] [--concurrency 2] [--rounds 1]

Each mode gets a fresh service on a free loopback port with a temporary data
folder and the local sandbox: ``local`` is ``serve`` with its own pool of
``--workers`` threads; ``celeryN`` is a redis-server on a free port,
``serve --broker`` and N ``worker`` processes of ``--concurrency`` each, on
the same database and data folder. The students are imported with
``--roster``; the instructor's settings form sets the helpers exercise's
minutes between attempts to 0. Each student then hands in their share of
``--files`` one after another (the helpers solution and its corpus, correct
and mistaken, taken in turn; each file made unique so that none could be
graded once for many), polling their own page every ``--poll`` seconds until
the attempt's report shows. Prints per mode the time to feedback (from the
POST to the report on the page: p50, p95), reports per second from the first
POST to the last report, and the errors; then the modes' ratios (medians
over ``--rounds``). The students, their polling included, run on the same
cores as the graders.
"""

import argparse
import asyncio
import itertools
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
from common import checkout_cases

from grader import exercises
from grader.service.db import sqlite_url

CLI = [sys.executable, "-m", "grader"]
EXERCISE = "helpers"
MODES = ("local", "celery1", "celery2")
START_SECONDS = 60  # for a process to say it is ready
STOP_SECONDS = 30  # for it to stop when asked, before it is killed
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
ROW = re.compile(r'<tr class="(\w+)"[ >]')  # an attempt's row; its class is its state
ATTEMPT_SECTION = re.compile(rf'<section id="{EXERCISE}">(.*?)</section>', re.S)


class Failed(Exception):
    """A mode could not be run; the message says why."""


@dataclass
class Outcome:
    feedback: list[float] = field(default_factory=list)  # seconds, POST to report shown
    errors: Counter[str] = field(default_factory=Counter)
    handed: int = 0  # hand-ins the service took
    first_post: float | None = None
    last_report: float | None = None
    hit_deadline: bool = False
    load_before: float = 0.0  # the machine's 1-minute load average as the mode started

    def rate(self) -> float:
        if not self.feedback or self.first_post is None or self.last_report is None:
            return 0.0
        return len(self.feedback) / (self.last_report - self.first_post)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile: a value some student really waited."""
    ranked = sorted(values)
    return ranked[max(0, math.ceil(fraction * len(ranked)) - 1)]


def class_files(count: int) -> list[tuple[str, bytes]]:
    """``count`` helpers submissions, (file name, bytes), correct and mistaken in turn."""
    (name,) = exercises.load(EXERCISE).files
    sources = [case.path / name for case in checkout_cases() if case.exercise == EXERCISE]
    # Unique bytes: a service that graded a digest once for all would otherwise look faster.
    return [(name, sources[n % len(sources)].read_bytes() + f"\n# submission {n}\n".encode())
            for n in range(count)]


def has_worker_command() -> bool:
    done = subprocess.run([*CLI, "worker", "--help"], capture_output=True)
    return done.returncode == 0


class Processes:
    """The processes of one mode, each in a session of its own so that the
    sandbox's children stop with it; each writes a log in the mode's folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[tuple[str, subprocess.Popen[bytes], Path]] = []

    def start(self, name: str, command: list[str]) -> tuple[subprocess.Popen[bytes], Path]:
        log = self.folder / f"{name}.log"
        with open(log, "wb") as out:
            try:
                process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                           cwd=self.folder, start_new_session=True)
            except FileNotFoundError:
                raise Failed(f"{command[0]} is not installed") from None
        self.started.append((name, process, log))
        return process, log

    def wait_for(self, name: str, pattern: str, ends: float) -> re.Match[str]:
        """The first match of ``pattern`` in ``name``'s log, once it is written."""
        process, log = next((p, log) for n, p, log in self.started if n == name)
        limit = min(ends, time.monotonic() + START_SECONDS)
        while True:
            text = log.read_text(errors="replace")
            found = re.search(pattern, text, re.M)
            if found:
                return found
            if process.poll() is not None or time.monotonic() > limit:
                why = "stopped" if process.poll() is not None else "did not get ready in time"
                tail = "\n".join(text.splitlines()[-15:])
                raise Failed(f"{name} {why}; the end of its log:\n{tail}")
            time.sleep(0.1)

    def stop_all(self) -> None:
        """Ask each to stop (the last started first), then kill what is left."""
        for name, process, _ in reversed(self.started):
            if process.poll() is None:
                process.send_signal(signal.SIGINT if name == "serve" else signal.SIGTERM)
            try:
                process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                print(f"    {name} did not stop in {STOP_SECONDS} s: killed", flush=True)
            try:  # its group: the sandbox's processes too
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()


def start_mode(mode: str, processes: Processes, roster: Path, ends: float, workers: int,
               concurrency: int) -> tuple[str, list[str], str]:
    """Start the mode's service: (its base URL, the students' tokens, the instructor secret)."""
    data = processes.folder / "data"
    port = free_port()
    serve = [*CLI, "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data),
             "--sandbox", "local", "--roster", str(roster), "--workers", str(workers)]
    if mode.startswith("celery"):
        redis_port = free_port()
        processes.start("redis", ["redis-server", "--bind", "127.0.0.1", "--port",
                                  str(redis_port), "--save", "", "--appendonly", "no"])
        processes.wait_for("redis", r"Ready to accept connections", ends)
        broker = f"redis://127.0.0.1:{redis_port}/0"
        database = sqlite_url(data)
        serve += ["--broker", broker, "--database", database]
    processes.start("serve", serve)
    base = f"http://127.0.0.1:{port}"
    processes.wait_for("serve", r"Uvicorn running on", ends)
    log = (processes.folder / "serve.log").read_text(errors="replace")
    tokens = re.findall(rf"^.* <.*>: {re.escape(base)}/s/([\w-]+)$", log, re.M)
    secret = re.search(rf"^the first instructor.s login link.*: {re.escape(base)}/i/([\w-]+)$",
                       log, re.M)
    if secret is None:
        raise Failed("serve printed no instructor link")
    if mode.startswith("celery"):
        worker = [*CLI, "worker", "--broker", broker, "--database", database, "--data",
                  str(data), "--sandbox", "local", "--concurrency", str(concurrency)]
        for number in range(int(mode.removeprefix("celery"))):
            processes.start(f"worker{number}", worker)
        for number in range(int(mode.removeprefix("celery"))):
            processes.wait_for(f"worker{number}", r"@\S+ ready\.", ends)
    return base, tokens, secret.group(1)


async def open_exercise(client: httpx2.AsyncClient, secret: str) -> None:
    """Through the instructor's settings form: no wait between attempts."""
    if (await client.get(f"/i/{secret}")).status_code != 303:  # it sets the cookie
        raise Failed("the instructor link was not taken")
    page = await client.get("/i/c/1")  # the first course, the first start's
    found = CSRF.search(page.text)
    if page.status_code != 200 or found is None:
        raise Failed(f"the instructor's page: HTTP {page.status_code}")
    saved = await client.post(f"/i/c/1/settings/{EXERCISE}", data={
        "csrf": found.group(1), "visible": "1", "deadline": "", "hard_deadline": "",
        "late_penalty": "0", "min_minutes": "0", "score_rule": "best"})
    if saved.status_code != 303:
        raise Failed(f"the settings form: HTTP {saved.status_code}")


async def attempts(client: httpx2.AsyncClient, token: str, outcome: Outcome) -> list[str] | None:
    """The states of the student's attempts at the exercise, newest first."""
    try:
        page = await client.get(f"/s/{token}")
    except httpx2.HTTPError as exc:
        outcome.errors[f"page {type(exc).__name__}"] += 1
        return None
    section = ATTEMPT_SECTION.search(page.text)
    if page.status_code != 200 or section is None:
        outcome.errors[f"page HTTP {page.status_code}"] += 1
        return None
    return ROW.findall(section.group(1))


async def student(client: httpx2.AsyncClient, token: str, files: list[tuple[str, bytes]],
                  poll: float, outcome: Outcome) -> None:
    """Hand in each file in turn, each once the one before has its report."""
    try:
        page = await client.get(f"/s/{token}")
    except httpx2.HTTPError as exc:
        outcome.errors[f"page {type(exc).__name__}"] += 1
        return
    found = CSRF.search(page.text)
    if found is None:
        outcome.errors[f"page HTTP {page.status_code}"] += 1
        return
    handed = 0
    for name, data in files:
        sent = time.monotonic()
        outcome.first_post = min(outcome.first_post or sent, sent)
        try:
            answer = await client.post(f"/s/{token}/submit/{EXERCISE}",
                                       data={"csrf": found.group(1)},
                                       files=[("files", (name, data, "text/x-python"))])
        except httpx2.HTTPError as exc:
            outcome.errors[f"hand-in {type(exc).__name__}"] += 1
            continue
        if answer.status_code != 303:
            outcome.errors[f"hand-in HTTP {answer.status_code}"] += 1
            continue
        handed += 1
        outcome.handed += 1
        while True:
            await asyncio.sleep(poll)
            states = await attempts(client, token, outcome)
            if states is not None and len(states) >= handed and states[0] != "waiting":
                break
        outcome.last_report = time.monotonic()
        outcome.feedback.append(outcome.last_report - sent)
        if states[0] != "graded":
            outcome.errors[f"report {states[0]}"] += 1


async def load(base: str, secret: str, tokens: list[str], files: list[tuple[str, bytes]],
               poll: float, ends: float, outcome: Outcome) -> None:
    # Idle connections are dropped before uvicorn's 5 s keep-alive ends: reusing one it is
    # closing would be a read error of the bench's own making.
    limits = httpx2.Limits(max_connections=len(tokens) + 1, keepalive_expiry=2)
    async with httpx2.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        await open_exercise(client, secret)
        # Student k hands in files k, k + n, k + 2n...: the shares differ by one at most.
        shares = [files[k::len(tokens)] for k in range(len(tokens))]
        everyone = asyncio.gather(*(student(client, token, share, poll, outcome)
                                    for token, share in zip(tokens, shares, strict=True)),
                                  return_exceptions=True)
        try:
            raised = await asyncio.wait_for(everyone, max(0.0, ends - time.monotonic()))
        except TimeoutError:
            outcome.hit_deadline = True
            return
        # A student the bench itself failed is an error of the run, not of the service.
        outcome.errors.update(f"student raised {type(exc).__name__}" for exc in raised
                              if isinstance(exc, Exception))


def run_mode(mode: str, args: argparse.Namespace, files: list[tuple[str, bytes]]) -> Outcome:
    ends = time.monotonic() + args.deadline
    with tempfile.TemporaryDirectory(prefix=f"minimax-grader-load-{mode}-") as folder:
        processes = Processes(Path(folder))
        roster = Path(folder) / "roster.csv"
        roster.write_text("name,email\n" + "".join(
            f"Student {n},s{n}@example.edu\n" for n in range(args.students)), encoding="utf-8")
        try:
            base, tokens, secret = start_mode(mode, processes, roster, ends, args.workers,
                                             args.concurrency)
            if len(tokens) != args.students:
                raise Failed(f"serve printed {len(tokens)} student links, not {args.students}")
            outcome = Outcome(load_before=os.getloadavg()[0])
            asyncio.run(load(base, secret, tokens, files, args.poll, ends, outcome))
            return outcome
        finally:
            processes.stop_all()


def summary(mode: str, outcome: Outcome, files: int, deadline: float) -> str:
    errors = ", ".join(f"{count} {kind}" for kind, count in sorted(outcome.errors.items()))
    line = f"  {mode}: {len(outcome.feedback)}/{files} reports, {outcome.rate():.2f} jobs/s"
    if outcome.feedback:
        line += (f"; time to feedback p50 {percentile(outcome.feedback, 0.5):.1f} s, "
                 f"p95 {percentile(outcome.feedback, 0.95):.1f} s")
    line += f"; errors: {errors or 'none'} (load average before: {outcome.load_before:.1f})"
    if outcome.hit_deadline:
        waiting = outcome.handed - len(outcome.feedback)
        line += (f"\n    DEADLINE: {deadline:.0f} s passed with {waiting} hand-ins still "
                 f"waiting for their report, {files - outcome.handed} not handed in")
    return line


def figures(outcomes: list[Outcome]) -> tuple[float, float, float] | None:
    """(jobs/s, p50, p95), each the median over the rounds that saw a report."""
    seen = [o for o in outcomes if o.feedback]
    if not seen:
        return None
    return (statistics.median(o.rate() for o in seen),
            statistics.median(percentile(o.feedback, 0.5) for o in seen),
            statistics.median(percentile(o.feedback, 0.95) for o in seen))


def ratio(mode: str, over: str, outcomes: dict[str, list[Outcome]]) -> str | None:
    """``mode`` against ``over``: jobs/s and times to feedback, as factors."""
    a, b = figures(outcomes.get(mode, [])), figures(outcomes.get(over, []))
    if a is None or b is None:
        return None
    return (f"{mode}/{over}: jobs/s {a[0] / b[0]:.2f}x  p50 {a[1] / b[1]:.2f}x  "
            f"p95 {a[2] / b[2]:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=50)
    parser.add_argument("--files", type=int, default=200, help="submissions in all")
    parser.add_argument("--modes", default=",".join(MODES),
                        help=f"comma-separated, of {', '.join(MODES)}")
    parser.add_argument("--poll", type=float, default=1.0,
                        help="seconds between a waiting student's looks at their page")
    parser.add_argument("--deadline", type=float, default=600,
                        help="seconds a mode may take in all, its start included")
    parser.add_argument("--workers", type=int, default=2, help="serve's own pool's threads")
    parser.add_argument("--concurrency", type=int, default=2,
                        help="each Celery worker's submissions graded at once")
    parser.add_argument("--rounds", type=int, default=1, help=(
        "the modes taken in turn this often; the ratios compare medians (on a shared "
        "machine, a round's figures follow its load)"))
    args = parser.parse_args()
    modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    unknown = set(modes) - set(MODES)
    if unknown or not modes or args.students < 1 or args.files < args.students or args.rounds < 1:
        parser.error(f"modes are {', '.join(MODES)}; --files is at least --students; "
                     "--rounds at least 1")
    if any(mode.startswith("celery") for mode in modes) and not has_worker_command():
        print("this minimax-grader has no `worker` command: the celery modes are skipped")
        modes = [mode for mode in modes if not mode.startswith("celery")]
    files = class_files(args.files)
    print(f"{args.students} students hand in {args.files} {EXERCISE} submissions in all, "
          f"polling every {args.poll:g} s; serve's pool grades {args.workers} at once, each "
          f"Celery worker {args.concurrency}; {os.cpu_count()} cores", flush=True)
    outcomes: dict[str, list[Outcome]] = {mode: [] for mode in modes}
    for _, mode in itertools.product(range(args.rounds), modes):
        try:
            outcomes[mode].append(run_mode(mode, args, files))
        except Failed as why:
            print(f"  {mode}: could not be run: {why}", flush=True)
            continue
        print(summary(mode, outcomes[mode][-1], args.files, args.deadline), flush=True)
    ratios = [ratio(*pair, outcomes) for pair in (("celery1", "local"), ("celery2", "celery1"))]
    shown = [line for line in ratios if line]
    if shown:
        print("  " + "   |   ".join(shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
