"""Alembic's entry point: migrates the connection ``db.migrate`` hands over."""

from alembic import context
from sqlalchemy import Connection, create_engine

from grader.service.models import Base

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # the alembic command line: the URL of its configuration
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as connection:
            _migrate(connection)
        return
    _migrate(connection)


def _migrate(connection: Connection) -> None:
    # render_as_batch: SQLite alters tables only by copying them
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
