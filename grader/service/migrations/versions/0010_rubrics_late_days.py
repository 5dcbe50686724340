"""Manual grading, late days and regrades seen first: each exercise's rubric and
the items applied to attempts, comments on lines of the files handed in, a
course's late days and the staff's settings of those spent, and the previews of
regrades with their held reports.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rubric_items",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), nullable=False,
                  index=True),
        sa.Column("exercise_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "rubric_marks",
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  primary_key=True),
        sa.Column("item_id", sa.Integer, sa.ForeignKey("rubric_items.id"), primary_key=True),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "line_comments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  nullable=False, index=True),
        sa.Column("file", sa.String(255), nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "late_day_allowances",
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), primary_key=True),
        sa.Column("days", sa.Integer, nullable=False),
    )
    op.create_table(
        "late_days_set",
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), primary_key=True),
        sa.Column("exercise_id", sa.String(64), primary_key=True),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("set_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "regrade_previews",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), nullable=False,
                  index=True),
        sa.Column("exercise_id", sa.String(64), nullable=False),
        sa.Column("grader_version", sa.String(32), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "preview_reports",
        sa.Column("preview_id", sa.Integer, sa.ForeignKey("regrade_previews.id"),
                  primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  primary_key=True, index=True),
        sa.Column("status", sa.String(16), nullable=True),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("max_score", sa.Float, nullable=True),
        sa.Column("body", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=True),
    )


def downgrade() -> None:
    for table in ("preview_reports", "regrade_previews", "late_days_set",
                  "late_day_allowances", "line_comments", "rubric_marks", "rubric_items"):
        op.drop_table(table)
