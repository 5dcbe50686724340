"""The service's tables (SQLAlchemy 2). The schema itself is made by the
Alembic migrations beside this module, which must say the same."""

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# "replaced": a later hand-in took its place before it was graded
JOB_STATES = ("waiting", "running", "done", "error", "replaced")
SCORE_RULES = ("best", "last")


class Base(DeclarativeBase):
    pass


class Printable(TypeDecorator[str]):
    """A string whose NUL characters (a roster may hold them) are stored as U+FFFD:
    PostgreSQL refuses them in text, SQLite keeps them; both must take the row."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else value.replace("\0", "\ufffd")


class PrintableText(Printable):
    """The same for text of any length (an error message may quote a file)."""

    impl = Text
    cache_ok = True


class Setting(Base):
    """The service's own values: the CSRF key, the LTI poster's marks."""

    __tablename__ = "service_settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class Course(Base):
    """A course (or a section): its own roster, exercise settings, staff, LTI contexts
    and league. Every page and action is one course's."""

    __tablename__ = "courses"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(Printable(255))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # The IANA name of the zone its dates are given and shown in (stored in UTC).
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")


class Person(Base):
    """Someone on the staff side: an instructor or TA of one course or more
    (``CourseStaff``), who signs in with credentials of their own."""

    __tablename__ = "people"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Printable(200))
    # Shown only: never what a person is found or matched by.
    email: Mapped[str | None] = mapped_column(Printable(254), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class CourseStaff(Base):
    """A person's role in one course (STAFF_ROLES); a revoked one opens nothing
    there, and an LMS launch does not give it back."""

    __tablename__ = "course_staff"
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    added_at: Mapped[datetime] = mapped_column(DateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


STAFF_ROLES = ("instructor", "ta")


class StaffCredential(Base):
    """A secret that signs a person in: a login link of theirs, or an LTI launch's
    (which lapses); only its hash is kept. It opens the courses named for it
    (``CredentialCourse``) where its person's role is live, no others."""

    __tablename__ = "staff_credentials"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    kind: Mapped[str] = mapped_column(String(8))  # "link" or "launch"
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class CredentialCourse(Base):
    """A course a staff credential opens: the one whose staff or launch made it, each
    course the operator's command made it for, and each course made with it."""

    __tablename__ = "staff_credential_courses"
    token_hash: Mapped[str] = mapped_column(ForeignKey("staff_credentials.token_hash"),
                                            primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), primary_key=True)


class AuditEntry(Base):
    """Who changed what in a course, and when (the actor's name as it was then)."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    course_id: Mapped[int | None] = mapped_column(ForeignKey("courses.id"), nullable=True,
                                                  index=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    actor: Mapped[str] = mapped_column(Printable(200))
    at: Mapped[datetime] = mapped_column(DateTime)
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(Printable(255))
    detail: Mapped[str] = mapped_column(PrintableText)


class Student(Base):
    __tablename__ = "students"
    __table_args__ = (UniqueConstraint("course_id", "email", name="uq_student_email"),
                      UniqueConstraint("course_id", "lti_user_id", name="uq_student_identity"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), index=True)
    name: Mapped[str] = mapped_column(Printable(200))
    email: Mapped[str] = mapped_column(Printable(254))
    # sha256 of the token: a stolen database holds no working link
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    # The queue's turn at which one of the student's jobs was last taken: the
    # lowest goes first (round robin over students; 0 for never).
    served: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # An inactive student's link opens nothing; their work is kept.
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # The LMS's own ids, from its roster export: its grade import matches on them.
    canvas_id: Mapped[str | None] = mapped_column(Printable(255), nullable=True)
    sis_user_id: Mapped[str | None] = mapped_column(Printable(255), nullable=True)
    sis_login_id: Mapped[str | None] = mapped_column(Printable(255), nullable=True)
    section: Mapped[str | None] = mapped_column(Printable(255), nullable=True)
    # The LTI identity the student is, once tied (never re-tied: see lti.launch).
    lti_user_id: Mapped[int | None] = mapped_column(ForeignKey("lti_users.id"), nullable=True)
    # Until tied: the platform whose launch may tie them by their email, once (the one
    # their roster came from, as the instructor said).
    match_platform_id: Mapped[int | None] = mapped_column(ForeignKey("lti_platforms.id"),
                                                          nullable=True)


class ExerciseSetting(Base):
    __tablename__ = "exercise_settings"
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), primary_key=True)
    exercise_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    hard_deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    late_penalty: Mapped[float] = mapped_column(Float, default=0.0)  # fraction of the score
    min_minutes: Mapped[float] = mapped_column(Float, default=0.0)  # between two attempts
    score_rule: Mapped[str] = mapped_column(String(8), default="best")
    # A new exercise is hidden until the instructor opens it (its row, or none: see
    # term.default_setting); the rows of courses kept from before say open.
    visible: Mapped[bool] = mapped_column(Boolean, default=False, server_default=true())
    release_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # The assignment's column in the LMS's gradebook; the exercise's title when unset.
    column_name: Mapped[str | None] = mapped_column(Printable(255), nullable=True)
    # Whether canvas.csv has a column for it; None: when it is open to students.
    in_canvas: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


class Extension(Base):
    """One student's own deadlines for one exercise (an accommodation)."""

    __tablename__ = "extensions"
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"), primary_key=True)
    exercise_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    hard_deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    set_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Submission(Base):
    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"), index=True)
    exercise_id: Mapped[str] = mapped_column(String(64), index=True)
    received_at: Mapped[datetime] = mapped_column(DateTime)
    # Late by the deadline in force at hand-in, kept for the record: what counts is
    # judged again from the deadline in force now (scores.late), as extensions move it.
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    digest: Mapped[str] = mapped_column(String(64))  # of the files' names and contents
    # The later hand-in (a submission's id) that took this one's place in the queue
    # before it was graded; no foreign key: SQLite adds one only by copying the table.
    replaced_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    files: Mapped[list["StoredFile"]] = relationship(order_by="StoredFile.name")
    reports: Mapped[list["Report"]] = relationship(order_by="Report.id")
    notes: Mapped[list["Note"]] = relationship(order_by="Note.id")
    # Loaded with it always: every score that counts is the report's plus these.
    marks: Mapped[list["RubricMark"]] = relationship(order_by="RubricMark.item_id",
                                                     lazy="selectin")


class StoredFile(Base):
    """One file of a submission; its bytes are in the store, named by sha256."""

    __tablename__ = "submission_files"
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(255), primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)


class Report(Base):
    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("submission_id", "grader_version",
                                       name="uq_report_submission_version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    grader_version: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # "graded" or "error"
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_score: Mapped[float] = mapped_column(Float)
    body: Mapped[str] = mapped_column(Text, deferred=True)  # the report's JSON
    created_at: Mapped[datetime] = mapped_column(DateTime)


class Note(Base):
    """What was said of an attempt, oldest first: an instructor's comment, a manual
    score (``score``; the newest of the student's at the exercise counts, whatever
    they hand in later, until one with no score removes it), a student's regrade
    request, and its answer (NOTE_KINDS)."""

    __tablename__ = "attempt_notes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    text: Mapped[str] = mapped_column(PrintableText)
    author: Mapped[str] = mapped_column(Printable(200))  # the name, as it was then
    # The staff member who wrote it; None for a student's request.
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


NOTE_KINDS = ("comment", "score", "request", "answer")


class Job(Base):
    __tablename__ = "jobs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    grader_version: Mapped[str] = mapped_column(String(32))
    state: Mapped[str] = mapped_column(String(16), index=True, default="waiting")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(PrintableText, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


# -- LTI 1.3 (see grader.service.lti) ---------------------------------------------------


class LaunchKey(Base):
    """A link an LTI launch made to a student's pages; only its hash is kept, and it
    lapses (staff launches make a StaffCredential)."""

    __tablename__ = "launch_keys"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"))
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)


class LtiPlatform(Base):
    """An LMS registered with the tool (``minimax-grader lti register``)."""

    __tablename__ = "lti_platforms"
    __table_args__ = (UniqueConstraint("issuer", "client_id", name="uq_lti_platform"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    issuer: Mapped[str] = mapped_column(String(255))
    client_id: Mapped[str] = mapped_column(String(255))
    deployment_ids: Mapped[str] = mapped_column(Text)  # a JSON list
    key_set_url: Mapped[str] = mapped_column(String(1000))
    auth_login_url: Mapped[str] = mapped_column(String(1000))
    auth_token_url: Mapped[str] = mapped_column(String(1000))
    auth_audience: Mapped[str | None] = mapped_column(String(1000), nullable=True)


class LtiKey(Base):
    """The tool's RSA keys: the newest signs, the one before stays in the JWKS."""

    __tablename__ = "lti_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class LtiState(Base):
    """pylti1p3's launch values (nonces above all), each for a while and used once."""

    __tablename__ = "lti_state"
    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    value: Mapped[str] = mapped_column(Text)  # JSON
    expires_at: Mapped[datetime] = mapped_column(DateTime, index=True)


class LtiContext(Base):
    """A course on a platform, with its roster's address (NRPS) once a launch gave it."""

    __tablename__ = "lti_contexts"
    __table_args__ = (UniqueConstraint("platform_id", "context_id", name="uq_lti_context"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id"))
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), index=True)
    context_id: Mapped[str] = mapped_column(String(255))
    # The deployment its launches came by: its roster's members are identities of it.
    deployment_id: Mapped[str] = mapped_column(String(255))
    title: Mapped[str] = mapped_column(Printable(255))
    memberships_url: Mapped[str | None] = mapped_column(String(1000), nullable=True)


class LtiUser(Base):
    """An LTI identity: issuer and client (the platform), deployment and subject. A
    learner is a roster's student in each course (Student.lti_user_id); staff are
    a person (``person_id``)."""

    __tablename__ = "lti_users"
    __table_args__ = (UniqueConstraint("platform_id", "deployment_id", "sub",
                                       name="uq_lti_user"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id"))
    deployment_id: Mapped[str] = mapped_column(String(255))
    sub: Mapped[str] = mapped_column(String(255))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)


class LtiMember(Base):
    """A user seen in a course (a launch or a roster sync): their scores go there."""

    __tablename__ = "lti_members"
    context_id: Mapped[int] = mapped_column(ForeignKey("lti_contexts.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("lti_users.id"), primary_key=True)


class LtiResource(Base):
    """An assignment in a course that opens an exercise, with its line item (AGS)."""

    __tablename__ = "lti_resources"
    __table_args__ = (UniqueConstraint("context_id", "resource_link_id",
                                       name="uq_lti_resource"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    context_id: Mapped[int] = mapped_column(ForeignKey("lti_contexts.id"))
    resource_link_id: Mapped[str] = mapped_column(String(255))
    exercise_id: Mapped[str] = mapped_column(String(64), index=True)
    endpoint: Mapped[str | None] = mapped_column(Text, nullable=True)  # the AGS claim, JSON


class LtiScorePost(Base):
    """A score sent (or to send) to a line item: what, to whom, how it went."""

    __tablename__ = "lti_score_posts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    resource_id: Mapped[int] = mapped_column(ForeignKey("lti_resources.id"), index=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"), index=True)
    # None: a first attempt waits to be graded, no score counts yet (Pending)
    score_given: Mapped[float | None] = mapped_column(Float, nullable=True)
    score_maximum: Mapped[float] = mapped_column(Float)
    grading_progress: Mapped[str] = mapped_column(String(16), default="FullyGraded",
                                                  server_default="FullyGraded")
    comment: Mapped[str | None] = mapped_column(PrintableText, nullable=True)
    submitted_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    state: Mapped[str] = mapped_column(String(12), index=True)  # SCORE_POST_STATES
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(PrintableText, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    next_try_at: Mapped[datetime] = mapped_column(DateTime)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


# "superseded": a newer score for the same line item and student came before it was sent
SCORE_POST_STATES = ("waiting", "sent", "failed", "superseded")


# -- the agent exercise's league (see grader.service.leagues) ---------------------------


class League(Base):
    """A round robin among the students' latest agents, under fixed settings (the
    game, the seed, the openings, the time a move): played again, it plays only
    the games it lacks, and those of students whose agent changed."""

    __tablename__ = "leagues"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), index=True)
    exercise_id: Mapped[str] = mapped_column(String(64), index=True)
    settings: Mapped[str] = mapped_column(Text)  # tournament.Settings as JSON
    state: Mapped[str] = mapped_column(String(16))  # LEAGUE_STATES
    shown: Mapped[bool] = mapped_column(Boolean, default=False)  # to the students
    error: Mapped[str | None] = mapped_column(PrintableText, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # scheduled
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


# "waiting": to be played at its starts_at, with the latest agents then; "playing": its
# games are being played (or were, when the service stopped: it goes on at the next
# start); "error": it stopped, saying why
LEAGUE_STATES = ("waiting", "playing", "done", "error")


class LeagueEntry(Base):
    """A student's agent in a league: the hand-in it plays."""

    __tablename__ = "league_entries"
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), primary_key=True)
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"), primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"))
    name: Mapped[str] = mapped_column(Printable(255))  # the agent's name in its games


class LeagueGame(Base):
    """One game of a league, as the referee recorded it."""

    __tablename__ = "league_games"
    __table_args__ = (UniqueConstraint("league_id", "game_id", name="uq_league_game"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id"), index=True)
    game_id: Mapped[str] = mapped_column(Printable(600))
    first_id: Mapped[int] = mapped_column(ForeignKey("students.id"), index=True)
    second_id: Mapped[int] = mapped_column(ForeignKey("students.id"), index=True)
    # The result, read without the moves: the leaderboard needs no more.
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 0: first, 1: second
    reason: Mapped[str] = mapped_column(PrintableText)
    body: Mapped[str] = mapped_column(Text, deferred=True)  # referee.Game as JSON


class SimilarReview(Base):
    """A staff member's look at a similar pair of one exercise: their note, and the
    two hand-ins (``Submission.digest``) it was about. It holds while both are
    the students' latest; a new hand-in of either asks for a new look."""

    __tablename__ = "similar_reviews"
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), primary_key=True)
    exercise_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    left_id: Mapped[int] = mapped_column(ForeignKey("students.id"), primary_key=True)
    right_id: Mapped[int] = mapped_column(ForeignKey("students.id"), primary_key=True)
    left_digest: Mapped[str] = mapped_column(String(64))
    right_digest: Mapped[str] = mapped_column(String(64))
    note: Mapped[str] = mapped_column(PrintableText)
    author: Mapped[str] = mapped_column(Printable(200))  # the name, as it was then
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime)


# -- manual grading and late days (see rubrics, comments, latedays) ----------------------


class RubricItem(Base):
    """A named adjustment of an exercise's score in a course (points, either sign, and
    a sentence the student reads): made once, applied to any attempt with a click."""

    __tablename__ = "rubric_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), index=True)
    exercise_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(Printable(80))
    points: Mapped[float] = mapped_column(Float)
    text: Mapped[str] = mapped_column(PrintableText)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class RubricMark(Base):
    """A rubric item applied to an attempt, by whom and when."""

    __tablename__ = "rubric_marks"
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("rubric_items.id"), primary_key=True)
    author: Mapped[str] = mapped_column(Printable(200))  # the name, as it was then
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    item: Mapped[RubricItem] = relationship(lazy="joined")


class LineComment(Base):
    """A staff member's comment on one line of a file of an attempt."""

    __tablename__ = "line_comments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), index=True)
    file: Mapped[str] = mapped_column(String(255))
    line: Mapped[int] = mapped_column(Integer)  # from 1
    text: Mapped[str] = mapped_column(PrintableText)
    author: Mapped[str] = mapped_column(Printable(200))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class LateDayAllowance(Base):
    """The late days each student of a course may spend across its exercises."""

    __tablename__ = "late_day_allowances"
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), primary_key=True)
    days: Mapped[int] = mapped_column(Integer)


class LateDaysSet(Base):
    """The late days a staff member set as spent on one student's exercise, in place
    of those the student's hand-ins would spend."""

    __tablename__ = "late_days_set"
    student_id: Mapped[int] = mapped_column(ForeignKey("students.id"), primary_key=True)
    exercise_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    days: Mapped[int] = mapped_column(Integer)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    set_at: Mapped[datetime] = mapped_column(DateTime)


class RegradePreview(Base):
    """A regrade of one exercise of a course whose reports are held aside until a
    staff member applies them (``PREVIEW_STATES``), so that what would change is
    seen first."""

    __tablename__ = "regrade_previews"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("courses.id"), index=True)
    exercise_id: Mapped[str] = mapped_column(String(64))
    grader_version: Mapped[str] = mapped_column(String(32))
    state: Mapped[str] = mapped_column(String(12))
    author: Mapped[str] = mapped_column(Printable(200))  # who asked for it
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


# "open": its reports are held for a look; "applied": they count (and those still being
# graded will when they are); "discarded": they never count
PREVIEW_STATES = ("open", "applied", "discarded")


class PreviewReport(Base):
    """A held report of a regrade preview: its score, not counted; None while the
    submission is being graded."""

    __tablename__ = "preview_reports"
    preview_id: Mapped[int] = mapped_column(ForeignKey("regrade_previews.id"),
                                            primary_key=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), primary_key=True,
                                               index=True)
    status: Mapped[str | None] = mapped_column(String(16), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_score: Mapped[float | None] = mapped_column(Float, nullable=True)
    body: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    created_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
