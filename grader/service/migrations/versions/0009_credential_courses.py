"""The courses each staff credential opens, one row a course.

A login link opened every course its person held a role in, and a launch's
credential noted its course only to lead there. Since this revision a credential
opens the courses named for it and no other. The credentials kept keep what they
opened: a launch's its course, a link each course its person is on the staff of
now (a revoked role's too: restored, it opens again, as it did).

On PostgreSQL the ids of courses and people also start past the rows 0006 wrote
with their ids (the first course, the first instructor): until now the first
course made after it was refused as a duplicate of course 1.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "staff_credential_courses",
        sa.Column("token_hash", sa.String(64), sa.ForeignKey("staff_credentials.token_hash"),
                  primary_key=True),
        sa.Column("course_id", sa.Integer, sa.ForeignKey("courses.id"), primary_key=True))
    op.execute(sa.text(
        "INSERT INTO staff_credential_courses (token_hash, course_id) "
        "SELECT token_hash, course_id FROM staff_credentials WHERE course_id IS NOT NULL"))
    op.execute(sa.text(
        "INSERT INTO staff_credential_courses (token_hash, course_id) "
        "SELECT credential.token_hash, held.course_id FROM staff_credentials credential "
        "JOIN course_staff held ON held.person_id = credential.person_id "
        "WHERE credential.course_id IS NULL"))
    with op.batch_alter_table("staff_credentials") as credentials:
        credentials.drop_column("course_id")
    if op.get_bind().dialect.name == "postgresql":
        for table in ("courses", "people"):
            op.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                               f"max(id)) FROM {table} HAVING count(*) > 0"))


def downgrade() -> None:
    raise NotImplementedError("a link that opens one course alone would open every course "
                              "of its person before this revision: restore the backup "
                              "taken before the upgrade")
