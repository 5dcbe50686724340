"""The first tables: students, exercise settings, submissions, files, reports, jobs.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "service_settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(256), nullable=False))
    op.create_table(
        "students",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False))
    op.create_index("ix_students_token_hash", "students", ["token_hash"], unique=True)
    op.create_table(
        "exercise_settings",
        sa.Column("exercise_id", sa.String(64), primary_key=True),
        sa.Column("deadline", sa.DateTime, nullable=True),
        sa.Column("hard_deadline", sa.DateTime, nullable=True),
        sa.Column("late_penalty", sa.Float, nullable=False),
        sa.Column("min_minutes", sa.Float, nullable=False),
        sa.Column("score_rule", sa.String(8), nullable=False))
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), nullable=False),
        sa.Column("exercise_id", sa.String(64), nullable=False),
        sa.Column("received_at", sa.DateTime, nullable=False),
        sa.Column("late", sa.Boolean, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False))
    op.create_index("ix_submissions_student_id", "submissions", ["student_id"])
    op.create_index("ix_submissions_exercise_id", "submissions", ["exercise_id"])
    op.create_table(
        "submission_files",
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  primary_key=True),
        sa.Column("name", sa.String(255), primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer, nullable=False))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  nullable=False),
        sa.Column("grader_version", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("max_score", sa.Float, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.UniqueConstraint("submission_id", "grader_version",
                            name="uq_report_submission_version"))
    op.create_index("ix_reports_submission_id", "reports", ["submission_id"])
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  nullable=False),
        sa.Column("grader_version", sa.String(32), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False))
    op.create_index("ix_jobs_submission_id", "jobs", ["submission_id"])
    op.create_index("ix_jobs_state", "jobs", ["state"])


def downgrade() -> None:
    for table in ("jobs", "reports", "submission_files", "submissions", "exercise_settings",
                  "students", "service_settings"):
        op.drop_table(table)
