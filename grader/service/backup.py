"""A term's data kept and brought back: ``minimax-grader backup DEST`` and
``restore SRC``.

A backup is one folder (or that folder as a ``.tar.gz``): the database (SQLite's
file copied by its online backup API, or PostgreSQL's ``pg_dump`` in its custom
format), which holds the LTI keys, the login links' hashes and every report; the
store's files, named by their sha256; the solutions published for the
similarity pages; and ``manifest.json``: the format, the grader's version, the
schema's revision, every table's rows and every file's sha256. The service may
run meanwhile: the database is copied as of one moment, and the store only ever
gains files, each written before the row that names it, so every file the copy
names is there.

A restore checks the manifest (every file there with its sha256, nothing else),
refuses a target that holds a term unless told to replace it, and counts the
rows it brought back against the manifest's.
"""

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, inspect, make_url, text

from grader import __version__
from grader.service import db
from grader.service.store import TEMPORARY

FORMAT = 1
MANIFEST = "manifest.json"
SQLITE = "grader.sqlite3"  # in the backup; the data folder's has db.sqlite_url's name
DUMP = "database.dump"  # pg_dump's custom format
FOLDERS = ("files", "published")  # the store, by sha256; the published solutions
ARCHIVES = (".tar.gz", ".tgz")
# What the summary names, in this order (the manifest counts every table).
SHOWN = {"courses": "courses", "students": "students", "submissions": "attempts",
         "reports": "reports", "people": "staff", "lti_keys": "LTI keys"}


class Refused(Exception):
    """Nothing (more) was done, for the reason said."""


@dataclass(frozen=True)
class Place:
    """Where a service keeps its term: its data folder and its database's URL."""

    data: Path
    database: str | None = None  # None: the data folder's SQLite file

    @property
    def url(self) -> str:
        return self.database or db.sqlite_url(self.data)

    @property
    def kind(self) -> str:
        return make_url(self.url).get_backend_name()

    @property
    def sqlite_file(self) -> Path:
        database = make_url(self.url).database
        assert database, "an SQLite URL names its file"
        return Path(database)


def backup(place: Place, destination: Path) -> dict[str, Any]:
    """Copy ``place``'s term into ``destination`` (a new or empty folder, or a new
    ``.tar.gz``); its manifest."""
    archive = destination.name.endswith(ARCHIVES)
    if destination.exists() and (archive or any(destination.iterdir())):
        raise Refused(f"{destination} exists{'' if archive else ' and is not empty'}: "
                      "a backup goes to a new place")
    if archive:
        destination.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=destination.parent) as work:
            made = _write(place, Path(work))
            with tarfile.open(destination, "w:gz") as out:
                out.add(work, arcname=".")
        return made
    destination.mkdir(mode=0o700, parents=True, exist_ok=True)
    return _write(place, destination)


def _write(place: Place, folder: Path) -> dict[str, Any]:
    if place.kind == "sqlite":
        if not place.sqlite_file.is_file():
            raise Refused(f"no database at {place.sqlite_file}: nothing to back up")
        _sqlite_copy(place.sqlite_file, folder / SQLITE)
        revision, counts = _facts(f"sqlite:///{folder / SQLITE}")
    else:
        revision, counts = _pg_dump(place.url, folder / DUMP)
    for name in FOLDERS:
        _copy_folder(place.data / name, folder / name)
    manifest = {"format": FORMAT, "grader_version": __version__, "revision": revision,
                "database": place.kind, "made_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "counts": counts, "files": _stored(folder), "checksums": _checksums(folder)}
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n",
                                   encoding="utf-8")
    return manifest


def _sqlite_copy(source: Path, target: Path) -> None:
    """``source``'s database into ``target`` as of one moment (SQLite's backup API)."""
    reading, writing = sqlite3.connect(source), sqlite3.connect(target)
    try:
        reading.backup(writing)
    finally:
        writing.close()
        reading.close()


def _counts(connection: Connection) -> dict[str, int]:
    return {table: connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one()
            for table in sorted(inspect(connection).get_table_names())
            if table != "alembic_version"}


def _revision(connection: Connection) -> str | None:
    if "alembic_version" not in inspect(connection).get_table_names():
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _facts(url: str) -> tuple[str | None, dict[str, int]]:
    """The database's schema revision and its tables' rows."""
    engine = db.connect(url)
    try:
        with engine.connect() as connection:
            return _revision(connection), _counts(connection)
    finally:
        engine.dispose()


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """``url`` as PostgreSQL's programs take it, its password in their environment
    (a command line is shown by ``ps`` to everyone)."""
    parsed = make_url(url)
    environment = dict(os.environ)
    if parsed.password:
        environment["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), environment


def _run(command: list[str], environment: dict[str, str]) -> None:
    if shutil.which(command[0]) is None:
        raise Refused(f"{command[0]} is not installed: install PostgreSQL's client programs "
                      "(Debian: postgresql-client), of the server's version or newer")
    done = subprocess.run(command, capture_output=True, text=True, env=environment)
    if done.returncode != 0:
        raise Refused(f"{command[0]} failed: {done.stderr.strip()[-2000:]}")


def _pg_dump(url: str, target: Path) -> tuple[str | None, dict[str, int]]:
    """The database into ``target`` with its revision and counts, all as of one
    moment: pg_dump reads the snapshot of the transaction that counted."""
    address, environment = _libpq(url)
    engine = db.connect(url)
    try:
        with engine.connect().execution_options(isolation_level="REPEATABLE READ") as held, \
                held.begin():
            snapshot = held.execute(text("SELECT pg_export_snapshot()")).scalar_one()
            facts = _revision(held), _counts(held)
            _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges",
                  f"--snapshot={snapshot}", f"--file={target}", f"--dbname={address}"],
                 environment)
        return facts
    finally:
        engine.dispose()


def _files(folder: Path) -> Iterator[Path]:
    """The files under ``folder``, a write in progress aside, in name order."""
    return (path for path in sorted(folder.rglob("*"))
            if path.is_file() and not path.name.startswith(TEMPORARY))


def _copy_folder(source: Path, target: Path) -> None:
    for path in _files(source) if source.is_dir() else ():
        copied = target / path.relative_to(source)
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copied)


def _sha256(path: Path) -> str:
    with path.open("rb") as data:
        return hashlib.file_digest(data, "sha256").hexdigest()


def _checksums(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): _sha256(path) for path in _files(folder)
            if path.name != MANIFEST}


def _stored(folder: Path) -> int:
    return sum(1 for _ in _files(folder / "files")) if (folder / "files").is_dir() else 0


# -- restore -------------------------------------------------------------------

def restore(source: Path, place: Place, force: bool = False) -> dict[str, Any]:
    """Bring the backup at ``source`` (its folder or ``.tar.gz``) into ``place``,
    which must hold no term unless ``force``; the manifest it restored."""
    with _opened(source) as folder:
        manifest = _checked(folder, place)
        _refuse_a_term(place, force)
        place.data.mkdir(mode=0o700, parents=True, exist_ok=True)
        if place.kind == "sqlite":
            for stale in (place.sqlite_file, *(Path(f"{place.sqlite_file}{end}")
                                              for end in ("-wal", "-shm"))):
                stale.unlink(missing_ok=True)
            _sqlite_copy(folder / SQLITE, place.sqlite_file)
        else:
            address, environment = _libpq(place.url)
            _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error",
                  "--single-transaction", *(["--clean", "--if-exists"] if force else []),
                  f"--dbname={address}", str(folder / DUMP)], environment)
        for name in FOLDERS:
            shutil.rmtree(place.data / name, ignore_errors=True)
            _copy_folder(folder / name, place.data / name)
    revision, counts = _facts(place.url)
    if (revision, counts) != (manifest["revision"], manifest["counts"]):
        raise Refused(f"the restored database differs from the manifest's: revision "
                      f"{revision}, rows {counts}")
    return manifest


@contextmanager
def _opened(source: Path) -> Iterator[Path]:
    if source.is_dir():
        yield source
        return
    if not source.is_file():
        raise Refused(f"{source}: no such backup")
    with tempfile.TemporaryDirectory() as work:
        try:
            with tarfile.open(source) as archive:
                archive.extractall(work, filter="data")  # no path out of ``work``
        except (tarfile.TarError, OSError) as why:
            raise Refused(f"{source}: not a backup's archive ({why})") from why
        yield Path(work)


def _checked(folder: Path, place: Place) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as why:
        raise Refused(f"{folder}: no readable {MANIFEST} ({why})") from why
    if manifest.get("format") != FORMAT:
        raise Refused(f"a backup of format {manifest.get('format')}; this version reads "
                      f"{FORMAT}")
    if manifest["database"] != place.kind:
        raise Refused(f"a backup of a {manifest['database']} database can't be restored into "
                      f"{place.kind}: restore it into the same kind")
    if not _known(manifest["revision"]):
        raise Refused(f"the backup's schema (revision {manifest['revision']}) is a later "
                      f"release's: restore it with minimax-grader {manifest['grader_version']}")
    found = _checksums(folder)
    if found != manifest["checksums"]:
        wrong = sorted(set(found.items()) ^ set(manifest["checksums"].items()))
        raise Refused(f"the backup does not match its manifest: {len(wrong)} file(s) "
                      f"missing, changed or added, e.g. {wrong[0][0]}")
    misnamed = [name for name, digest in found.items()
                if name.startswith("files/") and name.rsplit("/", 1)[1] != digest]
    if misnamed:
        raise Refused(f"stored files whose content is not their name: {misnamed[:3]}")
    return manifest


def _known(revision: str | None) -> bool:
    """Whether this version's migrations know ``revision`` (None: an empty schema)."""
    with resources.as_file(resources.files("grader.service") / "migrations") as folder:
        try:
            return revision is None or ScriptDirectory(str(folder)).get_revision(
                revision) is not None
        except CommandError:
            return False


def _refuse_a_term(place: Place, force: bool) -> None:
    held = [f"{name}/" for name in FOLDERS if (place.data / name).is_dir()
            and any(_files(place.data / name))]
    if place.kind == "sqlite":
        held += [place.sqlite_file.name] if place.sqlite_file.exists() else []
    else:
        engine = db.connect(place.url)
        try:
            with engine.connect() as connection:
                held += ["the database's tables"] if inspect(connection).get_table_names() \
                    else []
        finally:
            engine.dispose()
    if held and not force:
        raise Refused(f"the target already holds a term ({', '.join(held)}): stop its "
                      "service, and restore with --force to replace it")


def summary(manifest: dict[str, Any]) -> str:
    """What a backup holds, in words."""
    counts = manifest["counts"]
    things = [f"{counts.get(table, 0)} {name}" for table, name in SHOWN.items()]
    published = sum(1 for name in manifest["checksums"] if name.startswith("published/"))
    return (f"{', '.join(things)}, {manifest['files']} stored files, {published} published "
            f"solution files ({manifest['database']}, schema revision {manifest['revision']}, "
            f"made {manifest['made_at']} by minimax-grader {manifest['grader_version']})")
