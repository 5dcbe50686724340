"""How long a job waits after its grading host is SIGKILLed mid-run, until another
host takes it: with Celery's defaults, with the grader's Celery settings, and
with the grader's whole arrangement (the web process re-sends a job whose
host's lease lapsed). Needs redis-server; prints, asserts nothing.

    python bench/redelivery.py [--cap SECONDS]

Each Celery-only case runs two workers of a toy task that holds its job,
kills the one that has it, and times until the other starts it.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT
from redis import Redis

from grader.service import tasks
from tests.service.redis_server import started

HOLD = "bench.hold"


def celery_app(case: str, broker: str):
    from celery import Celery

    if case == "celery defaults":
        app = Celery("bench", broker=broker)
    else:
        app = tasks.make_app(broker)
        if case.endswith("visibility 5 s"):
            options = dict(app.conf.broker_transport_options, visibility_timeout=5)
            if case.startswith("kombu's restore"):  # its default interval and throttle
                del options["unacked_restore_interval"], options["unacked_restore_throttle"]
            app.conf.broker_transport_options = options

    @app.task(name=HOLD)
    def hold(folder):
        (Path(folder) / str(os.getpid())).touch()
        time.sleep(3600)

    return app


CASES = {
    "celery defaults": "acks on receipt: a killed worker's job is lost",
    "grader's settings": f"acks late; visibility {tasks.visibility_timeout():g} s, restore 1 s",
    "grader's settings, visibility 5 s": "shows unacked_restore_interval/throttle at 1 s",
    "kombu's restore, visibility 5 s": "the same with kombu's restore every 10 x 10 s",
}


def worker(case: str, broker: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--worker", case, broker],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def wait(ready, cap: float) -> float | None:
    started_at = time.monotonic()
    while not ready():
        if time.monotonic() - started_at > cap:
            return None
        time.sleep(0.05)
    return time.monotonic() - started_at


def celery_case(case: str, broker: str, cap: float) -> float | None:
    Redis.from_url(broker).flushall()
    with tempfile.TemporaryDirectory() as folder:
        workers = {(process := worker(case, broker)).pid: process for _ in range(2)}
        try:
            celery_app(case, broker).send_task(HOLD, args=[folder])
            assert wait(lambda: any(Path(folder).iterdir()), 60) is not None, "never started"
            [first] = [int(p.name) for p in Path(folder).iterdir()]
            # The task runs in the worker's pool, a child of the worker process.
            [victim] = [p for p in workers.values() if os.getpgid(first) == p.pid]
            kill(victim)
            return wait(lambda: len(list(Path(folder).iterdir())) > 1, cap)
        finally:
            for process in workers.values():
                kill(process)


def grader_case(broker: str, cap: float) -> float | None:
    from tests.service.test_service_celery import Grid, slow, wait_for

    Redis.from_url(broker).flushall()
    with tempfile.TemporaryDirectory() as folder:
        grid = Grid(Path(folder), broker)
        try:
            (grid.folder / "slow").touch()
            hosts = [grid.worker(), grid.worker()]
            [token] = grid.enrol()
            grid.hand_in(token, slow(grid.folder, "started"))
            wait_for("the grading started", (grid.folder / "started").exists)
            [victim] = [host for host in hosts if "job 1: grading on" in host.said()]
            victim.kill()
            (grid.folder / "slow").unlink()
            return wait(lambda: any("job 1: grading on" in host.said()
                                    for host in hosts if host is not victim), cap)
        finally:
            grid.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=60, help="seconds to wait at most")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        case, broker = args.worker
        celery_app(case, broker).worker_main(["worker", "--pool", "prefork", "--concurrency",
                                              "1", "--without-gossip", "--without-mingle"])
        return
    server = started(Path(tempfile.mkdtemp(prefix="redelivery-redis-")))
    try:
        for case, what in CASES.items():
            seconds = celery_case(case, server.url, args.cap)
            shown = f"{seconds:.1f} s" if seconds is not None else f"not within {args.cap:g} s"
            print(f"{case:<36} {shown:>18}   ({what})", flush=True)
        seconds = grader_case(server.url, args.cap)
        shown = f"{seconds:.1f} s" if seconds is not None else f"not within {args.cap:g} s"
        print(f"{'grader: lease + re-send':<36} {shown:>18}   (lease {tasks.LEASE_SECONDS:g} s, "
              "the web process looks every second)")
    finally:
        server.stop()


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
