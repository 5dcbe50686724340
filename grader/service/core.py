"""The service's state and rules: roster, exercise settings, submissions, and
the grading of the queue's jobs.

Everything the web pages and the pool do to the database goes through a
:class:`Service`; its jobs' states are its :class:`~grader.service.queue.Queue`'s.
A job grades the stored files as the upload's intake took them, through
``grading.grade_taken``. Times are stored in UTC (see ``times``); the clock is the service's own
(``now``), so that deadlines and the rate limit can be tested without waiting.
"""

import contextlib
import hashlib
import json
import logging
import shutil
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from grader import __version__, exercises, grading, image, intake
from grader import sandbox as sandboxes
from grader.exercises import Exercise
from grader.report import overloaded as starved
from grader.sandbox import Sandbox
from grader.service import (
    audit,
    code_view,
    db,
    fair,
    logs,
    overrides,
    people,
    roster,
    store,
    times,
    tokens,
)
from grader.service.gate import Gate
from grader.service.kept import Kept
from grader.service.metrics import RETRIED_AFTER_LOAD, Metrics
from grader.service.models import (
    Course,
    CourseStaff,
    ExerciseSetting,
    Extension,
    Job,
    LaunchKey,
    Note,
    Person,
    Report,
    Setting,
    StoredFile,
    Student,
    Submission,
)
from grader.service.people import Staff
from grader.service.queue import MAX_ATTEMPTS, Queue
from grader.service.store import Store
from grader.service.times import when

log = logging.getLogger("grader.service")

CSRF_KEY = "csrf_key"
FIRST_INSTRUCTOR = "Instructor"  # the name of the one the first start makes

# Grades a stored hand-in's files: the gate's sandbox, or a test's stand-in.
Grade = Callable[[Exercise, dict[str, bytes]], grading.Report]

# What every hand-in and status asks, built once with bound parameters (see fair).
BY_TOKEN = select(Student).where(Student.token_hash == bindparam("hash"))
BY_KEY = select(Student).join(LaunchKey).where(LaunchKey.token_hash == bindparam("hash"),
                                               LaunchKey.expires_at > bindparam("now"))
SETTINGS = select(ExerciseSetting).where(ExerciseSetting.course_id == bindparam("course"))
LAST_HAND_IN = select(func.max(Submission.received_at)).where(
    Submission.student_id == bindparam("student"), Submission.exercise_id == bindparam("exercise"))
TO_GRADE = (select(Submission).where(Submission.id == bindparam("id"))
            .options(selectinload(Submission.files)))


class Refused(Exception):
    """What the rules don't take now; the user is told why, with an HTTP status."""

    def __init__(self, why: str, status: int = 409) -> None:
        super().__init__(why)
        self.status = status


@dataclass
class Options:
    data: Path
    database: str | None = None  # any SQLAlchemy URL; default: SQLite in ``data``
    sandbox: str = "docker"  # or "local" (by name only: it isolates nothing)
    workers: int = 2
    max_upload: int = 2 * 1024 * 1024  # bytes of one upload request
    version: str = field(default_factory=lambda: grader_version())  # reports are kept under it
    broker: str | None = None  # a Celery broker URL: grading hosts grade, not this process
    student_slots: int = 1  # grading slots one student's jobs may hold at once
    # Slots the agents' matches may hold at once (minutes each); by default all but one
    # of the workers', so that exercises' hand-ins keep flowing while agents play.
    play_slots: int | None = None
    student_quota: int = 20 * 1024 * 1024  # bytes of distinct files one student may store
    body_idle_seconds: float = 5.0  # a request body that sends nothing this long is cut off
    body_seconds: float = 60.0  # and one that takes this long in all


def grader_version() -> str:
    """The package's version and a hash of its harness, suites and exercise.toml
    files: a fixed suite, or new points, is a new version, whose "regrade all" makes
    new reports beside the old (points need no new image: the host applies them)."""
    both = f"{image.contents_hash()}+{exercises.facts_hash()}"
    return f"{__version__}+{hashlib.sha256(both.encode()).hexdigest()[:12]}"


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


STOPPED = "the service stopped while grading it: graded again, uncharged"


class Held(Exception):
    """The sandbox can't be used now (the grading image is missing): the job waits."""


def digest(files: dict[str, bytes]) -> str:
    """One sha256 for a submission's files, names and contents both."""
    whole = hashlib.sha256()
    for name in sorted(files):
        whole.update(f"{name}\0{hashlib.sha256(files[name]).hexdigest()}\n".encode())
    return whole.hexdigest()


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
        # A grade function of its own (the tests') needs no sandbox; nor does a web
        # process whose grading hosts grade (a host's worker passes its own gate).
        if gate is None and sandbox is not None:
            gate = Gate(sandbox)
        elif gate is None and grade is None and not options.broker:
            gate = Gate.chosen(options.sandbox, warm=options.workers)
        self.gate = gate
        self._grade = grade or self._grade_in_sandbox
        self._submitting = threading.Lock()  # one student's check-then-insert at a time
        # Told the ids of newly queued jobs: the pool's or the broker's, once it runs.
        self.queued: Callable[[list[int]], None] = lambda job_ids: None
        # Told when a report is kept, or an exercise's rules change in a course (a counted
        # score may have changed): LTI's poster, which sends the new ones to the LMS.
        self.reported: Callable[[], None] = lambda: None
        self.rescored: Callable[[int, str], None] = lambda course_id, exercise_id: None
        # Reports this process has kept, per student: a student's page waiting for theirs
        # looks again when one is kept (see app's status).
        self.reports_kept = Kept()
        # Set when the process stops (SIGTERM, Ctrl-C): gradings in flight are cut
        # short, their jobs put back uncharged, to be graded once, later.
        self.stopping = threading.Event()
        self.csrf_key = self._setting(CSRF_KEY) or self._store_setting(CSRF_KEY, tokens.new())
        if not options.broker:  # with a broker, a running job may be on a live grading host
            self.queue.requeue_running()

    def close(self) -> None:
        """Let go of the sandbox (its warm containers are removed): the service stops."""
        self.stopping.set()
        if self.gate:
            self.gate.close()

    @property
    def sandbox(self) -> Sandbox | None:
        """The sandbox this process grades in, as last looked at; None where it grades
        with none (a web process whose grading hosts grade)."""
        return self.gate.current if self.gate else None

    def held(self) -> str | None:
        """Why grading waits (the grading image is missing), or None: this process's
        gate's reason; with grading hosts, the latest refusal noted on a waiting job."""
        if self.gate:
            return self.gate.why
        return self.queue.refusal()

    # -- the service's own settings -------------------------------------------------

    def _setting(self, key: str) -> str | None:
        with self.sessions() as session:
            found = session.get(Setting, key)
            return found.value if found else None

    def _store_setting(self, key: str, value: str) -> str:
        with self.sessions.begin() as session:
            session.merge(Setting(key=key, value=value))
        return value

    # -- courses and staff ----------------------------------------------------------

    def first_instructor_secret(self) -> str | None:
        """The first instructor's login link when there is no one on the staff side yet
        (the first start): they are made, with the first course if there is none;
        else None."""
        with self.sessions.begin() as session:
            if session.scalar(select(Person.id).limit(1)) is not None:
                return None
            course = session.scalar(select(Course).order_by(Course.id).limit(1))
            if course is None:
                course = self._new_course(session, "Course")
            person = people.new_person(session, FIRST_INSTRUCTOR, None, self.now())
            people.give_role(session, course.id, person.id, "instructor", self.now())
            audit.record(session, self.now(), course.id, None, "staff added",
                         f"{person.name} (#{person.id})", "the first instructor")
            return people.login_link(session, person.id, self.now())

    def new_instructor_secret(self) -> str:
        """A new login link for the first instructor (made if there is none); their
        links before stop working."""
        made = self.first_instructor_secret()
        if made is not None:
            return made
        with self.sessions.begin() as session:
            first = session.scalar(select(CourseStaff.person_id).where(
                CourseStaff.role == "instructor").order_by(CourseStaff.person_id).limit(1))
            assert first is not None  # the first start made one
            return people.login_link(session, first, self.now())

    def signed_in(self, secret: object) -> Staff | None:
        """The person whose live credential ``secret`` is, with their roles."""
        if not isinstance(secret, str) or not secret:
            return None
        with self.sessions() as session:
            return people.signed_in(session, secret, self.now())

    def courses(self) -> list[Course]:
        with self.sessions() as session:
            return list(session.scalars(select(Course).order_by(Course.id)))

    def course(self, course_id: int) -> Course | None:
        with self.sessions() as session:
            return session.get(Course, course_id)

    def new_course(self, title: str, by: Staff) -> Course:
        """A course, its maker its instructor."""
        with self.sessions.begin() as session:
            course = self._new_course(session, title)
            people.give_role(session, course.id, by.person.id, "instructor", self.now())
            audit.record(session, self.now(), course.id, by, "course made", course.title)
            return course

    def zone(self, course_id: int) -> ZoneInfo:
        """The course's time zone."""
        with self.sessions() as session:
            name = session.scalar(select(Course.time_zone).where(Course.id == course_id))
        return times.zone(name or "UTC")

    def set_time_zone(self, course_id: int, name: str, by: Staff | None = None) -> None:
        """The zone the course's times are given and shown in: Refused for an unknown
        name. The stored times stay (UTC): only how they read changes."""
        try:
            chosen = times.zone(name)
        except ValueError as why:
            raise Refused(str(why), 400) from None
        with self.sessions.begin() as session:
            course = session.get(Course, course_id)
            assert course is not None  # the page found it
            course.time_zone = chosen.key
            audit.record(session, self.now(), course_id, by, "time zone set", course.title,
                         chosen.key)

    def _new_course(self, session: Session, title: str) -> Course:
        course = Course(title=title.strip()[:255] or "Course", created_at=self.now())
        session.add(course)
        session.flush()
        return course

    def audited(self, course_id: int | None, by: Staff | None, action: str, target: str,
                detail: str = "") -> None:
        """Note a change made outside the service's own methods (the league, LTI)."""
        with self.sessions.begin() as session:
            audit.record(session, self.now(), course_id, by, action, target, detail)

    def csrf(self, subject: str) -> str:
        return tokens.csrf(self.csrf_key, subject)

    def csrf_ok(self, subject: str, given: object) -> bool:
        return tokens.csrf_ok(self.csrf_key, subject, given)

    # -- students -------------------------------------------------------------------

    def student(self, token: str) -> Student | None:
        """The student whose personal link, or live launch key (LTI), ``token`` is."""
        hashed = tokens.hashed(token)
        with self.sessions() as session:
            found = session.scalar(BY_TOKEN, {"hash": hashed}) or \
                session.scalar(BY_KEY, {"hash": hashed, "now": self.now()})
        return found if found is not None and found.active else None

    def students(self, course_id: int) -> list[Student]:
        with self.sessions() as session:
            return list(session.scalars(select(Student).where(Student.course_id == course_id)
                                        .order_by(Student.name, Student.id)))

    def import_roster(self, course_id: int, rows: Iterable["roster.Person | tuple[str, str]"],
                      match_platform: int | None = None, by: Staff | None = None
                      ) -> list[tuple[Student, str | None]]:
        """Add the students (name, email and the LMS's ids, see ``roster.Person``) not
        yet on the course's roster: each new one with its token (shown once), each
        known one (same email) with None, its LMS ids brought up to date. A launch
        from ``match_platform`` may tie a new one to their LTI identity by email, once."""
        added: list[tuple[Student, str | None]] = []
        with self.sessions.begin() as session:
            for row in rows:
                person = roster.Person(*row)
                known = session.scalar(select(Student).where(Student.course_id == course_id,
                                                              Student.email == person.email))
                if known is not None:
                    person.ids_onto(known)
                    added.append((known, None))
                    continue
                token = tokens.new()
                student = Student(course_id=course_id, name=person.name, email=person.email,
                                  token_hash=tokens.hashed(token), created_at=self.now(),
                                  match_platform_id=match_platform)
                person.ids_onto(student)
                session.add(student)
                session.flush()
                added.append((student, token))
            new = sum(1 for _, token in added if token)
            audit.record(session, self.now(), course_id, by, "roster imported",
                         f"{len(added)} student(s)", f"{new} new")
        return added

    def student_by_id(self, course_id: int, student_id: int) -> Student | None:
        """The course's student of that id; None for another course's."""
        with self.sessions() as session:
            found = session.get(Student, student_id)
        return found if found is not None and found.course_id == course_id else None

    def new_link(self, student_id: int, by: Staff | None = None) -> str:
        """A new personal link for the student: the one before stops working."""
        token = tokens.new()
        with self.sessions.begin() as session:
            student = session.get(Student, student_id)
            assert student is not None  # the page found them
            student.token_hash = tokens.hashed(token)
            audit.record(session, self.now(), student.course_id, by, "new link",
                         _named(student))
        return token

    def new_links(self, course_id: int, student_ids: Iterable[int], by: Staff | None = None
                  ) -> list[tuple[Student, str]]:
        """New personal links for the course's students of these ids, in one change
        (audited once): the ones before stop working. Each with its token."""
        made = []
        with self.sessions.begin() as session:
            for student in session.scalars(select(Student).where(
                    Student.course_id == course_id, Student.id.in_(list(student_ids)))
                    .order_by(Student.name, Student.id)):
                token = tokens.new()
                student.token_hash = tokens.hashed(token)
                made.append((student, token))
            audit.record(session, self.now(), course_id, by, "new links",
                         f"{len(made)} student(s)",
                         ", ".join(_named(student) for student, _ in made)[:2000])
        return made

    def set_active(self, student_id: int, active: bool, by: Staff | None = None) -> None:
        """An inactive student's link opens nothing; their work stays in the gradebook."""
        with self.sessions.begin() as session:
            student = session.get(Student, student_id)
            assert student is not None  # the page found them
            student.active = active
            audit.record(session, self.now(), student.course_id, by,
                         "reactivated" if active else "deactivated", _named(student))

    # -- exercise settings ----------------------------------------------------------

    def setting(self, course_id: int, exercise_id: str) -> ExerciseSetting:
        """The exercise's settings in the course; an open exercise (no deadline, no
        limit) by default."""
        with self.sessions() as session:
            found = session.get(ExerciseSetting, (course_id, exercise_id))
        return found or default_setting(course_id, exercise_id)

    def own_settings(self, course_id: int, student_id: int) -> dict[str, ExerciseSetting]:
        """Every exercise's settings with the student's extension, if any (``setting``
        and ``own_setting`` of each, from two queries)."""
        with self.sessions() as session:
            found = {setting.exercise_id: setting
                     for setting in session.scalars(SETTINGS, {"course": course_id})}
            extended = {extension.exercise_id: extension for extension in session.scalars(
                select(Extension).where(Extension.student_id == student_id))}
        return {exercise_id: overrides.own_setting(
                    found.get(exercise_id) or default_setting(course_id, exercise_id),
                    extended.get(exercise_id))
                for exercise_id in self.exercises}

    def save_setting(self, setting: ExerciseSetting, by: Staff | None = None) -> None:
        if setting.exercise_id not in self.exercises:
            raise Refused(f"no exercise {setting.exercise_id!r}")
        if setting.score_rule not in ("best", "last"):
            raise Refused("the score rule is best or last")
        if not 0 <= setting.late_penalty <= 1:
            raise Refused("the late penalty is a percentage from 0 to 100")
        if setting.min_minutes < 0:
            raise Refused("the minutes between attempts are not negative")
        if setting.deadline and setting.hard_deadline and setting.hard_deadline < setting.deadline:
            raise Refused("the hard deadline comes before the deadline")
        with self.sessions.begin() as session:
            session.merge(setting)
            audit.record(session, self.now(), setting.course_id, by, "settings saved",
                         setting.exercise_id,
                         said_setting(setting, self.zone(setting.course_id)))
        self.rescored(setting.course_id, setting.exercise_id)

    def own_setting(self, course_id: int, student_id: int,
                    exercise_id: str) -> ExerciseSetting:
        """The exercise's settings with the student's extension, if any."""
        with self.sessions() as session:
            found = session.get(ExerciseSetting, (course_id, exercise_id))
            extended = overrides.extension(session, student_id, exercise_id)
        return overrides.own_setting(found or default_setting(course_id, exercise_id),
                                     extended)

    def open_exercises(self, course_id: int) -> set[str]:
        """The ids of the exercises open to the course's students now (an extension
        moves deadlines only: the same for every student)."""
        now = self.now()
        with self.sessions() as session:
            found = {setting.exercise_id: setting
                     for setting in session.scalars(SETTINGS, {"course": course_id})}
        # One never saved has default_setting's: hidden.
        return {exercise_id for exercise_id, setting in found.items()
                if exercise_id in self.exercises and is_open(setting, now)}

    def extend(self, student_id: int, exercise_id: str, deadline: datetime | None,
               hard_deadline: datetime | None, by: Staff | None = None) -> None:
        """Set (or, with neither date, remove) one student's extension."""
        student = self.student_by_id(self._course_of(student_id), student_id)
        assert student is not None  # the page found them
        self.extend_many(student.course_id, [student_id], exercise_id, deadline,
                         hard_deadline, by, _named(student))

    def extend_many(self, course_id: int, student_ids: Iterable[int], exercise_id: str,
                    deadline: datetime | None, hard_deadline: datetime | None,
                    by: Staff | None = None, who: str = "") -> int:
        """Set (or remove) the extension of each of the course's students of these ids
        (a section, the class), in one change audited once as ``who``: how many.
        The lateness of the attempts made already is judged again by it (see
        ``scores.late``), and the counted scores sent on to the LMS."""
        if exercise_id not in self.exercises:
            raise Refused("no such exercise", 404)
        try:
            with self.sessions.begin() as session:
                ids = list(session.scalars(select(Student.id).where(
                    Student.course_id == course_id, Student.id.in_(list(student_ids)))))
                for student_id in ids:
                    made = overrides.extend(session, student_id, exercise_id, deadline,
                                            hard_deadline)
                    if made is not None:
                        made.person_id = by.person.id if by else None
                        made.set_at = self.now()
                where = self.zone(course_id)
                said = [f"{name} {when(moment, where) if moment else '-'}" for name, moment
                        in (("deadline", deadline), ("hard deadline", hard_deadline))]
                audit.record(session, self.now(), course_id, by,
                             "extension set" if deadline or hard_deadline
                             else "extension removed",
                             f"{who or f'{len(ids)} student(s)'}, {exercise_id}",
                             ", ".join(said))
        except ValueError as why:
            raise Refused(str(why), 400) from None
        self.rescored(course_id, exercise_id)
        return len(ids)

    def _course_of(self, student_id: int) -> int:
        with self.sessions() as session:
            course_id = session.scalar(select(Student.course_id)
                                       .where(Student.id == student_id))
        assert course_id is not None  # the page found the student
        return course_id

    def extensions(self, student_id: int) -> dict[str, Extension | None]:
        """Each exercise's extension for the student, or None."""
        with self.sessions() as session:
            return {exercise_id: overrides.extension(session, student_id, exercise_id)
                    for exercise_id in self.exercises}

    def requests(self, course_id: int) -> list[overrides.Request]:
        with self.sessions() as session:
            return overrides.requests(session, course_id)

    def add_note(self, submission_id: int, kind: str, text: str, author: str,
                 score: float | None = None, by: Staff | None = None) -> Note:
        """Note ``text`` on a submission (see ``overrides.note``), written by ``by``
        (staff) or, without, by ``author`` (the student's request); a manual score is
        sent on to the LMS."""
        submission = self.submission(submission_id)
        if submission is None:
            raise Refused("no such attempt", 404)
        exercise = self.exercises[submission.exercise_id]
        if kind == "request":
            self._check_request(submission)
        try:
            made = overrides.note(submission, kind, text, by.name if by else author,
                                  self.now(), score, exercise.max_score)
        except ValueError as why:
            raise Refused(str(why), 400) from None
        made.person_id = by.person.id if by else None
        with self.sessions.begin() as session:
            session.add(made)
            student = session.get(Student, submission.student_id)
            assert student is not None  # a submission's student is never deleted
            if by is not None:
                scored = f" {score:g}/{exercise.max_score:g}" if kind == "score" else ""
                audit.record(session, self.now(), student.course_id, by, f"{kind} noted",
                             f"attempt #{submission.id} of {_named(student)}",
                             f"{scored.strip()} {made.text}".strip())
            course_id = student.course_id
        if kind == "score":
            self.rescored(course_id, exercise.id)
        return made

    def remove_override(self, submission_id: int, by: Staff) -> None:
        """End the manual score in force for the attempt's student and exercise: the
        grader's scores count again. A note says who removed it, and when."""
        submission = self.submission(submission_id)
        if submission is None:
            raise Refused("no such attempt", 404)
        mine = self.attempts(submission.student_id, submission.exercise_id)
        if overrides.in_force(mine) is None:
            raise Refused("no manual score is in force for this exercise", 409)
        with self.sessions.begin() as session:
            session.add(Note(submission_id=submission.id, kind="score", score=None,
                             text=overrides.REMOVED, author=by.name, person_id=by.person.id,
                             created_at=self.now()))
            student = session.get(Student, submission.student_id)
            assert student is not None  # a submission's student is never deleted
            audit.record(session, self.now(), student.course_id, by, "score removed",
                         f"attempt #{submission.id} of {_named(student)}")
            course_id = student.course_id
        self.rescored(course_id, submission.exercise_id)

    def _check_request(self, submission: Submission) -> None:
        """Refused when the attempt has a request waiting for its answer, or the
        student has made REQUESTS_A_DAY requests in the last day."""
        if overrides.open_request(submission.notes):
            raise Refused("this attempt has a regrade request waiting for its answer "
                          "already", 409)
        day = self.now() - timedelta(days=1)
        with self.sessions() as session:
            made = overrides.requests_since(session, submission.student_id, day)
        if made >= overrides.REQUESTS_A_DAY:
            raise Refused(f"you have made {made} regrade requests in the last day, the most "
                          "there can be: ask again tomorrow", 429)

    # -- submissions ----------------------------------------------------------------

    def attempts(self, student_id: int, exercise_id: str | None = None,
                 bodies: bool = False) -> list[Submission]:
        """The student's submissions, oldest first, with their reports (the reports'
        JSON too when ``bodies``: the gradebook needs only their scores)."""
        reports = selectinload(Submission.reports)
        query = (select(Submission).where(Submission.student_id == student_id)
                 .options(reports.undefer(Report.body) if bodies else reports,
                          selectinload(Submission.files), selectinload(Submission.notes))
                 .order_by(Submission.received_at, Submission.id))
        if exercise_id is not None:
            query = query.where(Submission.exercise_id == exercise_id)
        with self.sessions() as session:
            return list(session.scalars(query))

    def next_allowed(self, student_id: int, setting: ExerciseSetting) -> datetime | None:
        """When the student may hand in again at ``setting``'s exercise; None when now
        is fine."""
        if not setting.min_minutes:
            return None
        with self.sessions() as session:
            last = session.scalar(LAST_HAND_IN, {"student": student_id,
                                                 "exercise": setting.exercise_id})
        return allowed_after(setting, last, self.now())

    def _check_window(self, student_id: int, exercise_id: str, now: datetime) -> bool:
        """Whether a submission now is late; Refused when none is taken now."""
        course_id = self._course_of(student_id)
        setting = self.own_setting(course_id, student_id, exercise_id)
        if not is_open(setting, now):  # an extension moves deadlines only
            raise Refused("this exercise is not open", 403)
        where = self.zone(course_id)
        if setting.hard_deadline and now > setting.hard_deadline:
            raise Refused(f"the hard deadline ({when(setting.hard_deadline, where)}) has "
                          "passed: no more submissions are taken for this exercise", 403)
        allowed = self.next_allowed(student_id, setting)
        if allowed is not None:
            raise Refused(f"too soon: your next attempt at this exercise is allowed from "
                          f"{when(allowed, where)}", 429)
        return bool(setting.deadline and now > setting.deadline)

    def submit(self, student_id: int, exercise_id: str, taken: intake.Submission) -> int:
        """Store a submission the intake took, queue its grading: its id.

        The files are durable on disk before the rows that name them commit.
        """
        if exercise_id not in self.exercises:
            raise Refused("no such exercise", 404)
        with self._submitting:
            now = self.now()
            late = self._check_window(student_id, exercise_id, now)
            self._check_quota(student_id, taken.files)
            stored = {name: self.store.put(data) for name, data in taken.files.items()}
            with self.sessions.begin() as session:
                submission = Submission(student_id=student_id, exercise_id=exercise_id,
                                        received_at=now, late=late, digest=digest(taken.files))
                session.add(submission)
                session.flush()
                session.add_all(StoredFile(submission_id=submission.id, name=name, sha256=sha,
                                           size=len(taken.files[name]))
                                for name, sha in stored.items())
                replaced = fair.replace_waiting(session, submission, now)
                job = self.queue.new(submission.id)
                session.add(job)
                session.flush()
                submission_id, job_id = submission.id, job.id
        log.info("submission %d received for %s (late: %s)", submission_id, exercise_id, late)
        if replaced:
            log.info("submission %d replaces %s, which waited ungraded", submission_id,
                     ", ".join(map(str, replaced)))
        self.queued([job_id])
        if self.gate and self.gate.current:  # its container starts while the job waits
            exercise = self.exercises[exercise_id]
            sandboxes.prepare(self.gate.current, exercise, exercise.limits)
        return submission_id

    def _check_quota(self, student_id: int, files: dict[str, bytes]) -> None:
        """Refused when storing ``files`` would take the student past their quota."""
        sizes = {Store.digest(data): len(data) for data in files.values()}
        with self.sessions() as session:
            used, adding = fair.stored_bytes(session, student_id, sizes)
        quota = self.options.student_quota
        if used + adding > quota:
            raise Refused(f"your files would take more than your storage quota of "
                          f"{quota // 1024} KB (your earlier hand-ins hold {used // 1024} KB, "
                          f"this one {adding // 1024} KB more): ask your instructor", 413)

    def submission(self, submission_id: int, student_id: int | None = None) -> Submission | None:
        """A submission with its files and reports; None when there is none, or it is
        not ``student_id``'s (when given)."""
        with self.sessions() as session:
            found = session.scalar(
                select(Submission).where(Submission.id == submission_id)
                .options(selectinload(Submission.reports).undefer(Report.body),
                         selectinload(Submission.files), selectinload(Submission.notes)))
        if found is None or (student_id is not None and found.student_id != student_id):
            return None
        return found

    # -- grading the queue's jobs ----------------------------------------------------

    def run(self, job_id: int) -> bool:
        """Grade a taken job's submission and keep its report: one per version, however
        often the job runs. A grader that raises, or is killed, is tried again,
        MAX_ATTEMPTS in all: whether the job waits to be tried again."""
        taken = self.queue.running(job_id)
        if taken is None:
            return False
        submission_id, attempts, queued_at = taken
        with self.sessions() as session:  # its files: what grading needs of it
            submission = session.scalar(TO_GRADE, {"id": submission_id})
        assert submission is not None  # a job's submission is never deleted
        exercise = self.exercises[submission.exercise_id]
        run = logs.Run(job_id, submission.student_id, exercise.id, attempts, queued_at,
                       self.now())
        files: dict[str, bytes] = {}
        if attempts > MAX_ATTEMPTS:  # the earlier ones never finished: their grader died
            log.error("job %d: its grader stopped %d times", job_id, MAX_ATTEMPTS)
            self._keep(job_id, submission, self._error_report(
                exercise, files, f"the grader stopped {MAX_ATTEMPTS} times"), run)
            return False
        try:
            files = {stored.name: self.store.get(stored.sha256) for stored in submission.files}
            made = self._grade(exercise, files)
            # No verdict, nothing charged (the machine starved the run, or the grader
            # failed): graded again, after the others, as if the grader had raised.
            if made["status"] == "error" and self.queue.failed(job_id, made["message"]):
                self._ended(run, RETRIED_AFTER_LOAD if starved(made) else "retry")
                return True
        except Held as held:
            self.queue.hold(job_id, str(held))
            self._ended(run, "held")
            return True
        except grading.Cancelled:
            self.queue.hold(job_id, STOPPED)
            self._ended(run, "stopped")
            return True
        except Exception as exc:  # a grader bug costs this job an attempt, not the pool
            # Its type only: a message may quote the student's files (it is kept in the job).
            log.error("job %d: the grader raised %s", job_id, type(exc).__name__)
            if self.queue.failed(job_id, f"{type(exc).__name__}: {exc}"):
                self._ended(run, "retry")
                return True
            made = self._error_report(
                exercise, files, f"the grader failed {MAX_ATTEMPTS} times ({type(exc).__name__})")
        self._keep(job_id, submission, made, run)
        return False

    def _ended(self, run: logs.Run, outcome: str, made: grading.Report | None = None) -> None:
        """Log and count a grading run that ended (see ``logs`` and ``metrics``)."""
        now = self.now()
        run.ended(outcome, now, made)
        self.metrics.ran(run, outcome, now, made)

    def _grade_in_sandbox(self, exercise: Exercise, files: dict[str, bytes]) -> grading.Report:
        """The report of a stored hand-in, graded in the gate's sandbox; Held while there
        is none, or when the run failed for want of it (the image went missing meanwhile)."""
        assert self.gate is not None  # opened with the service
        chosen = self.gate.sandbox()
        if chosen is None:
            raise Held(self.gate.why)
        made = grading.grade_taken(exercise, files, chosen, exercise.limits,
                                   cancel=self.stopping)
        if made["status"] == "error" and self.gate.look_again() is None:
            raise Held(self.gate.why)
        return made

    def _error_report(self, exercise: Exercise, files: dict[str, bytes],
                      why: str) -> grading.Report:
        backend = self.sandbox.name if self.sandbox else "none"
        return grading.failed(exercise, files, why, backend, exercise.limits)

    def _keep(self, job_id: int, submission: Submission, made: grading.Report,
              run: logs.Run) -> None:
        state = "error" if made["status"] == "error" else "done"
        try:
            with self.sessions.begin() as session:
                session.add(Report(submission_id=submission.id,
                                   grader_version=self.options.version, status=made["status"],
                                   score=made["score"], max_score=made["max_score"],
                                   body=json.dumps(made), created_at=self.now()))
                self.queue.finish(session, job_id, state)
        except IntegrityError:  # this version's report is there already: keep that one
            with self.sessions.begin() as session:
                self.queue.finish(session, job_id, state)
        self.reports_kept.add(submission.student_id)
        self._ended(run, state, made)
        self.reported()

    def drain(self) -> int:
        """Grade waiting jobs in this thread until none is left: how many ran."""
        ran = 0
        while (job_id := self.queue.claim()) is not None:
            self.run(job_id)
            ran += 1
        return ran

    def regrade(self, course_id: int, exercise_id: str, student_id: int | None = None,
                force: bool = False, by: Staff | None = None) -> "Regraded":
        """Queue the course's submissions of the exercise (one student's, when given)
        to be graded again, see ``regrade_submissions``."""
        query = (select(Submission.id).join(Student)
                 .where(Student.course_id == course_id, Submission.exercise_id == exercise_id,
                        Submission.replaced_by.is_(None)))
        if student_id is not None:
            query = query.where(Submission.student_id == student_id)
        with self.sessions() as session:
            ids = list(session.scalars(query))
        target = exercise_id if student_id is None else f"{exercise_id} of student #{student_id}"
        return self.regrade_submissions(ids, force, by, course_id, target)

    def regrade_submissions(self, ids: list[int], force: bool = False,
                            by: Staff | None = None, course_id: int | None = None,
                            target: str = "") -> "Regraded":
        """Queue each submission that has no report of this grader version (its error
        report, if any, is dropped to be made again), or, with ``force``, whose report
        of this version is dropped to be made again. Reports of other versions are
        kept; a submission already waiting is not queued twice. Audited in
        ``course_id`` as ``target`` when given."""
        version = self.options.version
        with self.sessions.begin() as session:
            this_version = Report.submission_id.in_(ids) & (Report.grader_version == version)
            dropped = this_version if force else this_version & (Report.status == "error")
            session.execute(delete(Report).where(dropped))
            done = set(session.scalars(select(Report.submission_id).where(this_version)))
            pending = set(session.scalars(select(Job.submission_id).where(
                Job.submission_id.in_(ids), Job.grader_version == version,
                Job.state.in_(("waiting", "running")))))
            jobs = [self.queue.new(i) for i in ids if i not in done and i not in pending]
            session.add_all(jobs)
            session.flush()
            job_ids = [job.id for job in jobs]
            made = Regraded(len(job_ids), len(done), len(pending - done))
            if course_id is not None:
                audit.record(session, self.now(), course_id, by,
                             "regrade forced" if force else "regrade", target, str(made))
        self.metrics.regrades.inc(len(job_ids))
        self.queued(job_ids)
        return made


@dataclass
class Regraded:
    """What a regrade did: how many were queued, and why the others were not."""

    queued: int
    current: int  # graded already by this grader version
    waiting: int  # already waiting or being graded

    def __str__(self) -> str:
        said = [f"{self.queued} submission(s) queued to be graded again"]
        if self.current:
            said.append(f"{self.current} not queued: graded already by this grader version "
                        "(the same grader gives the same report; force a new grading to "
                        "grade them anyway)")
        if self.waiting:
            said.append(f"{self.waiting} not queued: waiting or being graded already")
        return "; ".join(said) + "."


def default_setting(course_id: int, exercise_id: str) -> ExerciseSetting:
    """An exercise's settings before the instructor saves any: hidden from students
    (until the instructor opens it), no deadline."""
    return ExerciseSetting(course_id=course_id, exercise_id=exercise_id, late_penalty=0.0,
                           min_minutes=0.0, score_rule="best", visible=False)


def said_setting(setting: ExerciseSetting, where: tzinfo = UTC) -> str:
    """A setting in words, as the page confirms it and the audit log keeps it."""
    shown = "open to students" if setting.visible else "hidden from students"
    released = f" from {when(setting.release_at, where)}" if setting.release_at else ""
    deadline = when(setting.deadline, where) if setting.deadline else "none"
    hard = f" (hard: {when(setting.hard_deadline, where)})" if setting.hard_deadline else ""
    canvas = {None: "in canvas.csv while open", True: "in canvas.csv",
              False: "not in canvas.csv"}[setting.in_canvas]
    return (f"{shown}{released}; deadline {deadline}{hard}; late penalty "
            f"{setting.late_penalty:.0%}; {setting.min_minutes:g} minutes between attempts; "
            f"{setting.score_rule} attempt counts; {canvas}")


def _named(student: Student) -> str:
    return f"{student.name} (#{student.id})"


def allowed_after(setting: ExerciseSetting, last: datetime | None,
                  now: datetime) -> datetime | None:
    """When a student whose last hand-in came at ``last`` may hand in again; None
    when now is fine."""
    if not setting.min_minutes or last is None:
        return None
    allowed = last + timedelta(minutes=setting.min_minutes)
    return allowed if allowed > now else None


def is_open(setting: ExerciseSetting, now: datetime) -> bool:
    """Whether an exercise of these settings is open to students: visible, released."""
    return setting.visible and not (setting.release_at and now < setting.release_at)
