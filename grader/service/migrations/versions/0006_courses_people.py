"""Courses and people: several courses, each with its roster, exercise settings, staff,
LTI contexts and league; staff as people with roles and credentials of their own; an
audit log; the author of notes and extensions; an LTI identity of issuer, client,
deployment and subject, tied to one student per course; scores sent with their
progress, comment and time.

What there was becomes the first course, "Course": every student, setting, context
and league. The instructor secret becomes the login link of a first instructor
("Instructor"), so the link printed before keeps working; the instructor's live
launch keys become theirs too. A student tied to LTI users stays tied to the first
of them; an identity's deployment is its platform's first. A student not yet tied
may be tied by email once, at a launch from the platform, where exactly one is
registered (as any launch could before).

Revision ID: 0006
Revises: 0005
"""

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# SQLite's unnamed constraints get these names when a table is copied (batch mode).
NAMES = {"uq": "uq_%(table_name)s_%(column_0_name)s", "pk": "pk_%(table_name)s"}
FIRST = 1  # the first course's id, and the first instructor's


def upgrade() -> None:
    now = datetime.now(UTC).replace(tzinfo=None)
    _new_tables()
    bind = op.get_bind()
    bind.execute(sa.text("INSERT INTO courses (id, title, created_at) VALUES (:id, 'Course', "
                         ":now)"), {"id": FIRST, "now": now})
    _students()
    _settings()
    for table in ("lti_contexts", "leagues"):
        _course_column(table)
    _lti_users()
    with op.batch_alter_table("lti_contexts") as contexts:
        contexts.add_column(sa.Column("deployment_id", sa.String(255), nullable=True))
    _first_deployment("lti_contexts")
    with op.batch_alter_table("lti_contexts") as contexts:
        contexts.alter_column("deployment_id", existing_type=sa.String(255), nullable=False)
    _staff(now)
    with op.batch_alter_table("extensions") as extensions:
        extensions.add_column(sa.Column("person_id", sa.Integer, nullable=True))
        extensions.add_column(sa.Column("set_at", sa.DateTime, nullable=True))
        extensions.create_foreign_key("fk_extensions_person", "people", ["person_id"], ["id"])
    with op.batch_alter_table("attempt_notes") as notes:
        notes.add_column(sa.Column("person_id", sa.Integer, nullable=True))
        notes.create_foreign_key("fk_attempt_notes_person", "people", ["person_id"], ["id"])
    with op.batch_alter_table("lti_score_posts") as posts:
        posts.alter_column("score_given", existing_type=sa.Float, nullable=True)
        posts.add_column(sa.Column("grading_progress", sa.String(16), nullable=False,
                                   server_default="FullyGraded"))
        posts.add_column(sa.Column("comment", sa.Text, nullable=True))
        posts.add_column(sa.Column("submitted_at", sa.DateTime, nullable=True))


def _new_tables() -> None:
    op.create_table(
        "courses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("title", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False))
    op.create_table(
        "people",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False))
    op.create_table(
        "course_staff",
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("added_at", sa.DateTime, nullable=False),
        sa.Column("revoked_at", sa.DateTime, nullable=True))
    op.create_table(
        "staff_credentials",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=True))
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), nullable=True,
                  index=True),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(255), nullable=False),
        sa.Column("detail", sa.Text, nullable=False))


def _course_column(table: str) -> None:
    """``course_id``, the first course for every row there is."""
    with op.batch_alter_table(table) as batch:
        batch.add_column(sa.Column("course_id", sa.Integer, nullable=True))
    op.execute(sa.text(f"UPDATE {table} SET course_id = {FIRST}"))
    with op.batch_alter_table(table) as batch:
        batch.alter_column("course_id", existing_type=sa.Integer, nullable=False)
        batch.create_foreign_key(f"fk_{table}_course", "courses", ["course_id"], ["id"])
        batch.create_index(f"ix_{table}_course_id", ["course_id"])


def _students() -> None:
    bind = op.get_bind()
    unique = next(found["name"] for found in sa.inspect(bind).get_unique_constraints("students")
                  if found["column_names"] == ["email"])
    _course_column("students")
    with op.batch_alter_table("students", naming_convention=NAMES) as students:
        students.drop_constraint(unique or "uq_students_email", type_="unique")
        students.create_unique_constraint("uq_student_email", ["course_id", "email"])
        students.add_column(sa.Column("lti_user_id", sa.Integer, nullable=True))
        students.add_column(sa.Column("match_platform_id", sa.Integer, nullable=True))
        students.create_foreign_key("fk_students_lti_user", "lti_users", ["lti_user_id"],
                                    ["id"])
        students.create_foreign_key("fk_students_match_platform", "lti_platforms",
                                    ["match_platform_id"], ["id"])
        students.create_unique_constraint("uq_student_identity", ["course_id", "lti_user_id"])
    bind.execute(sa.text(
        "UPDATE students SET lti_user_id = (SELECT min(lti_users.id) FROM lti_users "
        "WHERE lti_users.student_id = students.id)"))
    platforms = list(bind.execute(sa.text("SELECT id FROM lti_platforms")).scalars())
    if len(platforms) == 1:
        bind.execute(sa.text("UPDATE students SET match_platform_id = :platform "
                             "WHERE lti_user_id IS NULL"), {"platform": platforms[0]})


def _settings() -> None:
    """Exercise settings keyed by course and exercise: a new table, the rows copied."""
    op.create_table(
        "course_exercise_settings",
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), primary_key=True),
        sa.Column("exercise_id", sa.String(64), primary_key=True),
        sa.Column("deadline", sa.DateTime, nullable=True),
        sa.Column("hard_deadline", sa.DateTime, nullable=True),
        sa.Column("late_penalty", sa.Float, nullable=False),
        sa.Column("min_minutes", sa.Float, nullable=False),
        sa.Column("score_rule", sa.String(8), nullable=False),
        sa.Column("visible", sa.Boolean, nullable=False, server_default=sa.true()),
        sa.Column("release_at", sa.DateTime, nullable=True),
        sa.Column("column_name", sa.String(255), nullable=True))
    columns = ("exercise_id, deadline, hard_deadline, late_penalty, min_minutes, score_rule, "
               "visible, release_at, column_name")
    op.execute(sa.text(f"INSERT INTO course_exercise_settings (course_id, {columns}) "
                       f"SELECT {FIRST}, {columns} FROM exercise_settings"))
    op.drop_table("exercise_settings")
    op.rename_table("course_exercise_settings", "exercise_settings")


def _lti_users() -> None:
    """An identity's deployment (its platform's first), and no student of its own."""
    with op.batch_alter_table("lti_users") as users:
        users.add_column(sa.Column("deployment_id", sa.String(255), nullable=True))
        users.add_column(sa.Column("person_id", sa.Integer, nullable=True))
    _first_deployment("lti_users")
    with op.batch_alter_table("lti_users") as users:
        users.alter_column("deployment_id", existing_type=sa.String(255), nullable=False)
        users.drop_constraint("uq_lti_user", type_="unique")
        users.create_unique_constraint("uq_lti_user", ["platform_id", "deployment_id", "sub"])
        users.create_foreign_key("fk_lti_users_person", "people", ["person_id"], ["id"])
        users.drop_column("student_id")


def _first_deployment(table: str) -> None:
    """Each row's ``deployment_id``: its platform's first deployment."""
    bind = op.get_bind()
    for platform, deployments in bind.execute(sa.text(
            "SELECT id, deployment_ids FROM lti_platforms")).all():
        first = (json.loads(deployments) or [""])[0]
        bind.execute(sa.text(f"UPDATE {table} SET deployment_id = :deployment "
                             "WHERE platform_id = :platform"),
                     {"deployment": first, "platform": platform})


def _staff(now: datetime) -> None:
    """The instructor secret and the instructor's launch keys: the first instructor's."""
    bind = op.get_bind()
    secret = bind.execute(sa.text(
        "SELECT value FROM service_settings WHERE key = 'instructor_hash'")).scalar()
    launched = bind.execute(sa.text(
        "SELECT token_hash, expires_at FROM launch_keys WHERE student_id IS NULL")).all()
    if secret is not None or launched:
        bind.execute(sa.text("INSERT INTO people (id, name, created_at) VALUES "
                             "(:id, 'Instructor', :now)"), {"id": FIRST, "now": now})
        bind.execute(sa.text("INSERT INTO course_staff (course_id, person_id, role, added_at) "
                             "VALUES (:id, :id, 'instructor', :now)"), {"id": FIRST, "now": now})
    if secret is not None:
        bind.execute(sa.text(
            "INSERT INTO staff_credentials (token_hash, person_id, kind, created_at) "
            "VALUES (:hash, :id, 'link', :now)"), {"hash": secret, "id": FIRST, "now": now})
        bind.execute(sa.text("DELETE FROM service_settings WHERE key = 'instructor_hash'"))
    for token_hash, expires_at in launched:
        bind.execute(sa.text(
            "INSERT INTO staff_credentials (token_hash, person_id, kind, course_id, "
            "created_at, expires_at) VALUES (:hash, :id, 'launch', :id, :now, :expires)"),
            {"hash": token_hash, "id": FIRST, "now": now, "expires": expires_at})
    bind.execute(sa.text("DELETE FROM launch_keys WHERE student_id IS NULL"))
    with op.batch_alter_table("launch_keys") as keys:
        keys.alter_column("student_id", existing_type=sa.Integer, nullable=False)


def downgrade() -> None:
    raise NotImplementedError("a service of several courses does not go back to one: "
                              "restore the backup taken before the upgrade")
