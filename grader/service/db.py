"""The database: an engine for any SQLAlchemy URL, migrated to the newest
schema at startup, and the clock the service keeps its times by (UTC)."""

import threading
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATION_LOCK = 0x6D6D6772  # any fixed key: the advisory lock held while migrating
# Alembic's command and environment are module state: one migration at a time here.
_migrating = threading.Lock()


def utcnow() -> datetime:
    """Now in UTC, without a zone: every time in the database is UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'grader.sqlite3'}"


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")  # the pool's writes don't block the pages' reads
    cursor.close()


def connect(url: str) -> Engine:
    """An engine for ``url``; SQLite's is shared by the pool's threads. A bare
    ``postgresql://`` URL gets psycopg (3), the driver the package depends on."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return create_engine(parsed, pool_pre_ping=True)


def migrate(engine: Engine, target: str = "head") -> None:
    """Bring the schema to revision ``target``, the newest by default (alembic
    ``upgrade``; the tests' database of an earlier release names an older one)."""
    config = Config()
    with resources.as_file(resources.files("grader.service") / "migrations") as folder:
        config.set_main_option("script_location", str(folder))
        with _migrating, engine.connect() as connection:
            sqlite = connection.dialect.name == "sqlite"
            if sqlite:  # a table copied (batch mode) leaves its keys to the check below
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()  # SQLAlchemy's own transaction; SQLite opened none
            try:
                with connection.begin():
                    _hold_schema(connection)
                    config.attributes["connection"] = connection
                    command.upgrade(config, target)
                    if sqlite:
                        _check_keys(connection)
            finally:
                if sqlite:
                    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                    connection.commit()


def revision(engine: Engine) -> str | None:
    """The schema's revision (None: a database no migration has touched)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def _hold_schema(connection: Connection) -> None:
    """Lock the schema until the migration commits: services started at once on one
    database (the web process and grading hosts) migrate one after the other, the
    later ones finding the schema up to date."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    elif connection.dialect.name == "sqlite":  # its driver would run the DDL outside one
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _check_keys(connection: Connection) -> None:
    """Every foreign key of the migrated database still holds (SQLite checks none
    while a migration copies tables): else the migration is rolled back."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")


def sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
