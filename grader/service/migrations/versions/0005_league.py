"""The agent exercise's league: its settings and state, the agent each student
plays, and its games.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("exercise_id", sa.String(64), nullable=False, index=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("shown", sa.Boolean, nullable=False),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("starts_at", sa.DateTime, nullable=True),
        sa.Column("finished_at", sa.DateTime, nullable=True))
    op.create_table(
        "league_entries",
        sa.Column("league_id", sa.Integer, sa.ForeignKey("leagues.id"), primary_key=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), primary_key=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"),
                  nullable=False),
        sa.Column("name", sa.String(255), nullable=False))
    op.create_table(
        "league_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("league_id", sa.Integer, sa.ForeignKey("leagues.id"), nullable=False,
                  index=True),
        sa.Column("game_id", sa.String(600), nullable=False),
        sa.Column("first_id", sa.Integer, sa.ForeignKey("students.id"), nullable=False,
                  index=True),
        sa.Column("second_id", sa.Integer, sa.ForeignKey("students.id"), nullable=False,
                  index=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.UniqueConstraint("league_id", "game_id", name="uq_league_game"))


def downgrade() -> None:
    op.drop_table("league_games")
    op.drop_table("league_entries")
    op.drop_table("leagues")
