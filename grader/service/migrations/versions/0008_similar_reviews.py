"""Similar pairs a staff member has looked at: their note, and the two hand-ins it
was about.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "similar_reviews",
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), primary_key=True),
        sa.Column("exercise_id", sa.String(64), primary_key=True),
        sa.Column("left_id", sa.Integer, sa.ForeignKey("students.id"), primary_key=True),
        sa.Column("right_id", sa.Integer, sa.ForeignKey("students.id"), primary_key=True),
        sa.Column("left_digest", sa.String(64), nullable=False),
        sa.Column("right_digest", sa.String(64), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("author", sa.String(200), nullable=False),
        sa.Column("person_id", sa.Integer, sa.ForeignKey("people.id"), nullable=True),
        sa.Column("at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("similar_reviews")
