"""``minimax-grader serve``: the service under uvicorn, with its grading pool or, given a
broker, the dispatcher that hands jobs to the grading hosts."""

import sys
from pathlib import Path

import uvicorn

from grader.errors import UsageError
from grader.hosting.watch import PLAIN, Watch
from grader.service import app
from grader.service.core import Service
from grader.service.options import Options
from grader.service.pool import Pool
from grader.service.roster import parse as parse_roster

STOP_SECONDS = 5


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def import_roster(service: Service, path: Path, base: str) -> None:
    """Add a roster CSV's students to the first course; print each new one's link
    (shown once)."""
    try:
        rows = parse_roster(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{path}: {exc}") from None
    for student, token in service.students.import_roster(service.access.courses()[0].id, rows):
        link = f"{base}/s/{token}" if token else "already on the roster: link unchanged"
        print(f"{student.name} <{student.email}>: {link}")


def serve(options: Options, host: str, port: int, roster: Path | None = None,
          new_link: bool = False, watch: Watch = PLAIN, public_url: str | None = None) -> int:
    """Serve on ``host``:``port``; the links it prints start with ``public_url``
    (the proxy's address students reach), else with that address."""
    watch.start_log()
    base = public_url.rstrip("/") if public_url else base_url(host, port)
    if options.broker:  # the grading hosts grade: this process opens no sandbox
        from grader.service.dispatch import Dispatcher

        service = Service(options)
        return _run(service, Dispatcher(service, options.broker), host, port, base, roster,
                    new_link, watch)
    # Without Docker and its grading image the service runs, and its jobs wait (see gate).
    service = Service(options)
    try:
        return _run(service, Pool(service, options.workers), host, port, base, roster,
                    new_link, watch)
    finally:  # the app's end closed it, unless it never started
        service.close()


def _run(service: Service, pool: Pool, host: str, port: int, base: str, roster: Path | None,
         new_link: bool, watch: Watch) -> int:
    access = service.access
    secret = access.new_instructor_secret() if new_link else access.first_instructor_secret()
    if roster is not None:  # into the first course, which the first start made
        import_roster(service, roster, base)
    if secret:
        print(f"the first instructor's login link (shown this once; keep it secret): "
              f"{base}/i/{secret}")
    else:
        print("the first instructor's login link: shown at the first start "
              "(--new-instructor-link makes a new one)")
    sys.stdout.flush()
    service.metrics.watch(service.sessions, service.exercises, pool)
    watch.expose(service.metrics.registry)
    # No access log: the paths it would write hold the students' tokens (the app logs
    # each request by its route instead); uvicorn's own lines go through watch's log.
    # A stop (SIGTERM, Ctrl-C) waits this long at most for open requests (a student's
    # page waits for its report), then the pool's gradings are cut short.
    uvicorn.run(app.build(service, pool), host=host, port=port, access_log=False,
                log_level="info", log_config=None, timeout_graceful_shutdown=STOP_SECONDS)
    return 0
