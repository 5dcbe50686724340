"""A whole term: students' roster ids and whether they are active, exercises shown
or hidden (with a release time) and their gradebook column, per-student deadline
extensions, and notes on attempts (comments, manual scores, regrade requests).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added columns, no table copied: SQLite's copy of students would break the
    # foreign keys that name it.
    op.add_column("students", sa.Column("active", sa.Boolean, nullable=False,
                                        server_default=sa.true()))
    for column in ("canvas_id", "sis_user_id", "sis_login_id", "section"):
        op.add_column("students", sa.Column(column, sa.String(255), nullable=True))
    op.add_column("exercise_settings", sa.Column("visible", sa.Boolean, nullable=False,
                                                 server_default=sa.true()))
    op.add_column("exercise_settings", sa.Column("release_at", sa.DateTime, nullable=True))
    op.add_column("exercise_settings", sa.Column("column_name", sa.String(255),
                                                 nullable=True))
    op.create_table(
        "extensions",
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), primary_key=True),
        sa.Column("exercise_id", sa.String(64), primary_key=True),
        sa.Column("deadline", sa.DateTime, nullable=True),
        sa.Column("hard_deadline", sa.DateTime, nullable=True))
    op.create_table(
        "attempt_notes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False))


def downgrade() -> None:
    op.drop_table("attempt_notes")
    op.drop_table("extensions")
    with op.batch_alter_table("exercise_settings") as settings:
        for column in ("column_name", "release_at", "visible"):
            settings.drop_column(column)
    with op.batch_alter_table("students") as students:
        for column in ("section", "sis_login_id", "sis_user_id", "canvas_id", "active"):
            students.drop_column(column)
