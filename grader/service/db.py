"""The database: an engine for any SQLAlchemy URL, migrated to the newest
schema at startup, and the clock the service keeps its times by (UTC)."""

from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker


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
    """An engine for ``url``; SQLite's is shared by the pool's threads."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (alembic ``upgrade head``)."""
    config = Config()
    with resources.as_file(resources.files("grader.service") / "migrations") as folder:
        config.set_main_option("script_location", str(folder))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")


def sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)
