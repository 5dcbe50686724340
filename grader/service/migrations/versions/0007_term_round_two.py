"""A course's time zone, canvas.csv's choice of exercises, and exercises hidden
until opened.

Each course gets the time zone "UTC" (as its times were shown before), and each
exercise setting ``in_canvas`` unset (canvas.csv then has the exercises open to
students). A new exercise is now hidden until the instructor opens it; so that
the courses kept from before keep their state, each exercise of this release that
a course never saved a setting for gets one here as it had it: open, no deadline.
A course that holds nothing yet (no staff, student or setting: the first course of
a fresh install) keeps every exercise hidden, as a course made later does.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# The exercises of this release: those a course open before had open by default.
EXERCISES = ("agent", "alphabeta", "decision", "depth_limit", "gamestate", "helpers",
             "iterative_deepening", "kayles_alphabeta", "kayles_decision",
             "kayles_depth_limit", "kayles_helpers", "kayles_iterative_deepening",
             "nim_negamax", "tic_tac_toe", "tic_tac_toe_alphabeta")


def upgrade() -> None:
    op.add_column("courses", sa.Column("time_zone", sa.String(64), nullable=False,
                                       server_default="UTC"))
    op.add_column("exercise_settings", sa.Column("in_canvas", sa.Boolean, nullable=True))
    bind = op.get_bind()
    saved = set(bind.execute(sa.text("SELECT course_id, exercise_id FROM exercise_settings")))
    kept = bind.execute(sa.text(
        "SELECT id FROM courses WHERE id IN (SELECT course_id FROM course_staff) "
        "OR id IN (SELECT course_id FROM students) "
        "OR id IN (SELECT course_id FROM exercise_settings)"))
    opened = [{"course": course, "exercise": exercise} for (course,) in kept
              for exercise in EXERCISES if (course, exercise) not in saved]
    if opened:
        bind.execute(sa.text(
            "INSERT INTO exercise_settings (course_id, exercise_id, late_penalty, min_minutes, "
            "score_rule, visible) VALUES (:course, :exercise, 0, 0, 'best', :open)"),
            [{**row, "open": True} for row in opened])


def downgrade() -> None:
    with op.batch_alter_table("exercise_settings") as settings:
        settings.drop_column("in_canvas")
    with op.batch_alter_table("courses") as courses:
        courses.drop_column("time_zone")
