"""Grading a whole class: N submissions at once, resumable, interruptible.

Every student's report is written as soon as it is made (atomically), so a
crash or Ctrl-C keeps all finished work; the gradebook, summary.json and
index.html are remade from the reports at the end of every run. Identical
submissions are graded once; ``resume`` keeps reports whose files are
unchanged. Ctrl-C once stops new work and lets running sandboxes finish;
twice kills them (their students stay pending).

The output folder holds only what a run writes (OWN); the reports of
students no longer in the class are moved aside to ASIDE, out of the
gradebook, before anything is graded.
"""

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TypeGuard

from grader import __version__, exercises, grading, intake, render
from grader.batch import page, similar, summary
from grader.batch.roster import Roster
from grader.batch.summary import Summary
from grader.files import write_atomic
from grader.intake import Submission
from grader.report import Report
from grader.sandbox import Sandbox, layout_of

if TYPE_CHECKING:  # rich's progress is imported where a batch runs: grade needs none
    from rich.console import Console
    from rich.progress import Progress

EXIT_ERRORS = 1  # some students' reports are grader errors: --retry-errors
EXIT_INTERRUPTED = 130
ASIDE = "not-in-class"  # reports of students no longer in SUBMISSIONS
OWN = ("reports", "grades.csv", "summary.json", "index.html", ASIDE, similar.FOLDER)

Group = list[tuple[str, Submission]]  # students with identical files, graded once
# What signal.signal returns and takes: a function, SIG_IGN or SIG_DFL, or None.
Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


@dataclass
class Options:
    jobs: int
    resume: bool = False
    retry_errors: bool = False
    limits: exercises.Limits | None = None  # None: the exercise's own
    similar_exclude: Path | None = None  # published solutions: no evidence of copying


def foreign(out: Path) -> list[str]:
    """The names in the folder ``out`` that no batch run writes (hidden ones
    aside, such as a crashed run's temp files); none for a missing folder."""
    if not out.is_dir():
        return []
    return sorted(name for name in os.listdir(out)
                  if name not in OWN and not name.startswith("."))


def earlier(out: Path) -> bool:
    """Whether ``out`` holds the results of an earlier run."""
    return (out / "summary.json").is_file() or (out / "reports").is_dir()


@dataclass
class Outcome:
    reports: dict[str, Report | None]  # student -> report, or None while pending
    summary: Summary
    graded_now: int = 0
    kept: int = 0
    interrupted: bool = False
    seconds: float = 0.0
    set_aside: list[str] = field(default_factory=list)  # students whose reports went to ASIDE

    @property
    def exit_code(self) -> int:
        if self.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_ERRORS if self.summary["regrade"] else 0


def _tally(reports: Iterable[Report]) -> tuple[int, int]:
    """(failed, errors) among ``reports``: graded below full marks, grader errors."""
    reports = list(reports)
    failed = sum(r["status"] == "graded" and r["score"] < r["max_score"] for r in reports)
    return failed, sum(r["status"] == "error" for r in reports)


def _hold_off() -> Handler:
    """Ignore Ctrl-C from now on (only the main thread can): the grading is over,
    and what is left, the gradebook and letting go of the sandboxes, is quick
    and must be whole. The handler it replaced, for ``_put_back``."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, signal.SIG_IGN)


def _put_back(handler: Handler) -> None:
    if handler is not None:
        signal.signal(signal.SIGINT, handler)


@contextlib.contextmanager
def held_off() -> Iterator[None]:
    """Ctrl-C ignored within: for the end of a batch (letting go of the sandboxes)."""
    handler = _hold_off()
    try:
        yield
    finally:
        _put_back(handler)


def _wait_all(futures: Sequence[Future[None]]) -> None:
    """Wait for ``futures``, waking often: Ctrl-C can reach another thread, and
    Python raises it in the main thread only when that thread runs."""
    while wait(futures, timeout=0.1).not_done:
        pass


class Batch:
    def __init__(self, exercise: exercises.Exercise, sandbox: Sandbox, out: Path | str,
                 options: Options, console: "Console") -> None:
        self.exercise = exercise
        self.sandbox = sandbox
        self.out = Path(out)
        self.options = options
        self.console = console
        self.limits = options.limits or exercise.limits
        self.reports: dict[str, Report | None] = {}
        # the students of each set of files, graded now or kept
        self.alike: dict[tuple[tuple[str, str], ...], list[str]] = {}
        self.codes: dict[str, similar.Files] = {}  # each student's files, to compare
        self.made = 0  # reports made by this run
        self.lock = threading.Lock()
        self.cancel = threading.Event()
        self.previous_sigint: Handler = None  # Ctrl-C's handler while the grading went on
        self.progress: "Progress | None" = None

    # -- planning ---------------------------------------------------------

    def _reusable(self, old: Report | None, manifest: list[dict[str, Any]]) -> TypeGuard[Report]:
        return (old is not None and old["exercise"] == self.exercise.id
                and old["grader_version"] == __version__
                and old["sandbox"]["layout"] == layout_of(self.sandbox).name
                and old["sandbox"]["limits"] == self.limits.facts()
                and old["submission"]["files"] == manifest
                and not (self.options.retry_errors and old["status"] == "error"))

    def _plan(self, roster: Roster) -> tuple[list[Group], int]:
        """Groups of (student, submission) with identical files still to grade."""
        groups: dict[tuple[tuple[str, str], ...], Group] = {}
        kept = 0
        for entry in roster.entries:
            self.reports[entry.student] = None
            try:
                submission = entry.take(self.exercise.files)
            except intake.Rejected as why:
                self._save(entry.student, grading.reject(self.exercise, str(why), self.limits))
                continue
            manifest = submission.manifest()
            self.codes[entry.student] = similar.texts(submission)
            key = tuple((f["name"], f["sha256"]) for f in manifest)
            self.alike.setdefault(key, []).append(entry.student)
            if self.options.resume or self.options.retry_errors:
                old = grading.previous(self._path(entry.student, "json"))
                if self._reusable(old, manifest):
                    self.reports[entry.student] = old
                    self._page(entry.student, old)
                    kept += 1
                    continue
            groups.setdefault(key, []).append((entry.student, submission))
        return list(groups.values()), kept

    # -- grading ----------------------------------------------------------

    def _path(self, student: str, suffix: str) -> Path:
        return self.out / summary.report_file(student, suffix)

    def _set_aside(self, students: Iterable[str]) -> list[str]:
        """Move the reports of everyone not in ``students`` to ASIDE: a student
        who left the class (or was renamed) keeps no row in the gradebook.
        The students whose reports were moved, by their reports' names."""
        keep = {self._path(student, suffix).name for student in students
                for suffix in ("json", "txt", "html")}
        moved = sorted(path for path in (self.out / "reports").iterdir()
                       if path.name not in keep and not path.name.startswith(".")
                       and path.is_file())
        if moved:
            (self.out / ASIDE).mkdir(exist_ok=True)
        for path in moved:
            os.replace(path, self.out / ASIDE / path.name)
        return sorted({path.stem for path in moved})

    def _page(self, student: str, kept: Report) -> None:
        """A kept report's page, where it has none (a folder from before pages):
        the summary links it; one already there is left as it is."""
        path = self._path(student, "html")
        if not path.exists():
            write_atomic(path, page.report_page(student, kept))

    def _save(self, student: str, one: Report) -> None:
        write_atomic(self._path(student, "json"), render.to_json(one))
        write_atomic(self._path(student, "txt"), render.to_text(one))
        write_atomic(self._path(student, "html"), page.report_page(student, one))
        with self.lock:
            self.reports[student] = one
            self.made += 1

    def _grade(self, group: Group) -> None:
        submissions = [submission for _, submission in group]
        try:
            made = grading.until_timed(lambda: grading.grade_alike(
                self.exercise, submissions, self.sandbox, self.limits, cancel=self.cancel),
                pause=self.cancel.wait)
        except grading.Cancelled:
            return
        for (student, _), one in zip(group, made, strict=True):
            self._save(student, one)
        self._advance(made)

    def _advance(self, made: list[Report]) -> None:
        assert self.progress is not None  # run() makes it before the grading starts
        failed, errors = _tally(made)
        with self.lock:
            task = self.progress.tasks[0]
            self.progress.update(task.id, advance=len(made),
                                 failed=task.fields["failed"] + failed,
                                 errors=task.fields["errors"] + errors)

    def _run_all(self, groups: list[Group], pool: ThreadPoolExecutor) -> bool:
        """Grade every group; True if the user interrupted. Ctrl-C is held off
        from the moment the grading is over (see ``_hold_off``)."""
        assert self.progress is not None  # run() makes it before the grading starts
        futures = [pool.submit(self._grade, group) for group in groups]
        try:
            _wait_all(futures)
            self.previous_sigint = _hold_off()
            return False
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
        running = [f for f in futures if not f.done()]
        try:  # the second Ctrl-C may come while the line is being written
            self.progress.console.print(
                f"stopping: no new submissions; letting the {len(running)} running one(s) "
                "finish (Ctrl-C again kills them)")
            _wait_all(running)
        except KeyboardInterrupt:
            self.cancel.set()
            self.progress.console.print("killing the running sandboxes ...")
            wait(running)
        self.previous_sigint = _hold_off()
        return True

    def _progress(self, total: int, done: int) -> "Progress":
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        progress = Progress(
            TextColumn("grading"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[failed]} failed, {task.fields[errors]} errors"),
            TimeElapsedColumn(), TextColumn("elapsed,"), TimeRemainingColumn(), TextColumn("left"),
            console=self.console)
        failed, errors = _tally(r for r in self.reports.values() if r is not None)
        progress.add_task("grading", total=total, completed=done, failed=failed, errors=errors)
        return progress

    # -- the whole run ----------------------------------------------------

    def run(self, roster: Roster) -> Outcome:
        started = time.monotonic()
        (self.out / "reports").mkdir(parents=True, exist_ok=True)
        set_aside = self._set_aside([entry.student for entry in roster.entries])
        groups, kept = self._plan(roster)
        done = sum(r is not None for r in self.reports.values())
        self.progress = self._progress(len(self.reports), done)
        try:
            with self.progress, ThreadPoolExecutor(self.options.jobs,
                                                   thread_name_prefix="grade") as pool:
                interrupted = self._run_all(groups, pool)
            identical = [students for students in self.alike.values() if len(students) > 1]
            pairs = (similar.compared(self.exercise, self.codes, self.out,
                                      self.options.similar_exclude)
                     if similar.available() else None)
            overview = summary.summarize(self.exercise, self.reports, self.sandbox.name,
                                         roster.ignored, identical, pairs)
            self._write_overview(overview)
        finally:
            _put_back(self.previous_sigint)
        return Outcome(self.reports, overview, graded_now=self.made, kept=kept,
                       interrupted=interrupted, seconds=time.monotonic() - started,
                       set_aside=set_aside)

    def _write_overview(self, overview: Summary) -> None:
        write_atomic(self.out / "summary.json", render.to_json(overview))
        write_atomic(self.out / "grades.csv", summary.gradebook(self.exercise, overview))
        write_atomic(self.out / "index.html", page.render(overview))

