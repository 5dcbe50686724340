"""The service: what it is made of, and where each of its concerns lies.

A :class:`Service` opens the database, the files' store and the queue, and builds
its parts: ``access`` (the staff's secrets and sign-in, CSRF, the courses),
``students`` (the roster, links, hand-ins as kept), ``term`` (each exercise's
settings, extensions, notes and requests) and ``jobs`` (hand-ins stored and queued,
graded, regraded). Times are stored in UTC (see ``times``); the clock is the
service's own (``now``), so that deadlines and the rate limit can be tested without
waiting. Its collaborators listen to its signals: ``queued``, ``reported`` and
``rescored``.
"""

import contextlib
import shutil
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from grader import exercises
from grader.sandbox import Sandbox
from grader.service import code_view, db, store
from grader.service.access import Access
from grader.service.gate import Gate
from grader.service.jobs import Grade, Jobs
from grader.service.metrics import Metrics
from grader.service.options import Options
from grader.service.queue import Queue
from grader.service.signals import Signal
from grader.service.store import Store
from grader.service.students import Students
from grader.service.term import Term


def scratch(folder: Path) -> Path:
    """The service's temporary folder (an upload is unpacked there for the intake),
    for the service's user alone, cleared at the start of what a stopped process
    left: an entry older than ``store.STALE_SECONDS`` is a crash's, since an upload
    takes milliseconds (another process may be using the folder meanwhile)."""
    folder.mkdir(mode=0o700, exist_ok=True)
    stale = time.time() - store.STALE_SECONDS
    for left in folder.iterdir():
        with contextlib.suppress(FileNotFoundError):  # another process's clean-up
            if left.lstat().st_mtime >= stale:
                continue
            if left.is_dir() and not left.is_symlink():
                shutil.rmtree(left)
            else:
                left.unlink()
    return folder


class Service:
    def __init__(self, options: Options, *, now: Callable[[], datetime] = db.utcnow,
                 grade: Grade | None = None, sandbox: Sandbox | None = None,
                 gate: Gate | None = None) -> None:
        self.options = options
        self.now = now
        # The students' files and the database: for the service's user alone.
        options.data.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.engine = db.connect(options.database or db.sqlite_url(options.data))
        db.migrate(self.engine)
        self.sessions = db.sessions(self.engine)
        self.metrics = Metrics()
        self.highlights = code_view.Highlights(options.data / "highlighted")
        # Graded by a suite, or by play (the agent): both through grading.grade_taken.
        self.exercises = {exercise.id: exercise for exercise in exercises.load_all()}
        played = frozenset(e.id for e in self.exercises.values() if e.by_play)
        play_slots = options.play_slots or max(1, options.workers - 1)
        self.queue = Queue(self.sessions, now, options.version, options.student_slots, played,
                           play_slots)
        self.store = Store(options.data / "files")
        self.scratch = scratch(options.data / "scratch")
        # Told the ids of newly queued jobs: the pool's or the broker's, once it runs.
        self.queued: Signal[[list[int]]] = Signal()
        # Told when a report is kept, or an exercise's rules change in a course (a counted
        # score may have changed): LTI's poster, which sends the new ones to the LMS.
        self.reported: Signal[[]] = Signal()
        self.rescored: Signal[[int, str]] = Signal()
        self.access = Access(self.sessions, now)
        self.students = Students(self.sessions, now)
        self.term = Term(self.sessions, now, self.exercises, self.access, self.students,
                         self.rescored)
        # A grade function of its own (the tests') needs no sandbox; nor does a web
        # process whose grading hosts grade (a host's worker passes its own gate).
        if gate is None and sandbox is not None:
            gate = Gate(sandbox)
        elif gate is None and grade is None and not options.broker:
            gate = Gate.chosen(options.sandbox, warm=options.workers)
        self.jobs = Jobs(sessions=self.sessions, now=now, options=options,
                         exercises=self.exercises, queue=self.queue, store=self.store,
                         metrics=self.metrics, term=self.term, grade=grade, gate=gate,
                         queued=self.queued, reported=self.reported)
        if not options.broker:  # with a broker, a running job may be on a live grading host
            self.queue.requeue_running()

    def close(self) -> None:
        """The service stops: see ``Jobs.close``."""
        self.jobs.close()
