"""Fair queueing: each student's turn in the queue, and a hand-in replaced by a later one.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Added columns, no table copied (SQLite would copy one to add a foreign key:
    # replaced_by names a submission, and submissions are never deleted).
    op.add_column("students", sa.Column("served", sa.Integer, nullable=False,
                                        server_default="0"))
    op.add_column("submissions", sa.Column("replaced_by", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as submissions:
        submissions.drop_column("replaced_by")
    with op.batch_alter_table("students") as students:
        students.drop_column("served")
