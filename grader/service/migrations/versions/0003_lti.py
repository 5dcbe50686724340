"""LTI 1.3: platforms, the tool's keys, launch state, courses, users, assignments,
the scores sent to the LMS, and the links launches make.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

URL = sa.String(1000)


def upgrade() -> None:
    op.create_table(
        "launch_keys",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), nullable=True),
        sa.Column("expires_at", sa.DateTime, nullable=False, index=True))
    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("deployment_ids", sa.Text, nullable=False),
        sa.Column("key_set_url", URL, nullable=False),
        sa.Column("auth_login_url", URL, nullable=False),
        sa.Column("auth_token_url", URL, nullable=False),
        sa.Column("auth_audience", URL, nullable=True),
        sa.UniqueConstraint("issuer", "client_id", name="uq_lti_platform"))
    op.create_table(
        "lti_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("private_pem", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False))
    op.create_table(
        "lti_state",
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("expires_at", sa.DateTime, nullable=False, index=True))
    op.create_table(
        "lti_contexts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id"), nullable=False),
        sa.Column("context_id", sa.String(255), nullable=False),
        sa.Column("title", sa.String(255), nullable=False),
        sa.Column("memberships_url", URL, nullable=True),
        sa.UniqueConstraint("platform_id", "context_id", name="uq_lti_context"))
    op.create_table(
        "lti_users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("platform_id", sa.Integer, sa.ForeignKey("lti_platforms.id"), nullable=False),
        sa.Column("sub", sa.String(255), nullable=False),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), nullable=True),
        sa.UniqueConstraint("platform_id", "sub", name="uq_lti_user"))
    op.create_table(
        "lti_members",
        sa.Column("context_id", sa.Integer, sa.ForeignKey("lti_contexts.id"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("lti_users.id"), primary_key=True))
    op.create_table(
        "lti_resources",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("context_id", sa.Integer, sa.ForeignKey("lti_contexts.id"), nullable=False),
        sa.Column("resource_link_id", sa.String(255), nullable=False),
        sa.Column("exercise_id", sa.String(64), nullable=False, index=True),
        sa.Column("endpoint", sa.Text, nullable=True),
        sa.UniqueConstraint("context_id", "resource_link_id", name="uq_lti_resource"))
    op.create_table(
        "lti_score_posts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("resource_id", sa.Integer, sa.ForeignKey("lti_resources.id"), nullable=False,
                  index=True),
        sa.Column("student_id", sa.Integer, sa.ForeignKey("students.id"), nullable=False,
                  index=True),
        sa.Column("score_given", sa.Float, nullable=False),
        sa.Column("score_maximum", sa.Float, nullable=False),
        sa.Column("state", sa.String(12), nullable=False, index=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("next_try_at", sa.DateTime, nullable=False),
        sa.Column("sent_at", sa.DateTime, nullable=True))


def downgrade() -> None:
    for table in ("lti_score_posts", "lti_resources", "lti_members", "lti_users",
                  "lti_contexts", "lti_state", "lti_keys", "lti_platforms", "launch_keys"):
        op.drop_table(table)
