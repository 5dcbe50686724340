"""A term kept by a previous release opens in this one: each folder
tests/service/upgrade/term-<version>/ (made by make_term.py beside it, with that
release's code) is upgraded by ``minimax-grader db upgrade`` as the units run it,
on SQLite and on PostgreSQL, and every row of it is found, and its pages show it.

PostgreSQL's copy of a term is built here from the SQLite rows, on a database
migrated to the term's own revision: what that release made there."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, MetaData, select, text
from starlette.testclient import TestClient

from grader import solutions
from grader.service import app, db
from grader.service.core import Service
from grader.service.options import Options
from tests.service.conftest import FULL_MARKS, NAME, ROOT
from tests.service.postgres_server import database, postgres  # noqa: F401

COMMAND = str(Path(sys.executable).parent / "minimax-grader")
TERMS = sorted((Path(__file__).parent / "upgrade").glob("term-*"))
HEAD = ScriptDirectory(str(ROOT / "grader" / "service" / "migrations")).get_current_head()
Rows = dict[str, tuple[list[str], set[tuple]]]


def rows(engine: Engine) -> Rows:
    """Every table's columns and rows, but Alembic's own."""
    tables = MetaData()
    tables.reflect(engine)
    with engine.connect() as connection:
        return {name: ([column.name for column in table.columns],
                       set(map(tuple, connection.execute(select(table)))))
                for name, table in tables.tables.items() if name != "alembic_version"}


def _column(found: Rows, table: str, *names: str) -> set[tuple]:
    columns, kept = found[table]
    return {tuple(row[columns.index(name)] for name in names) for row in kept}


def _tied_students(before: Rows, after: Rows) -> bool:
    """Each student an LTI identity was tied to is tied to it still (or, tied to
    several, to the first), from the student's side since the course migration."""
    tied = {}
    for user, student in sorted(_column(before, "lti_users", "id", "student_id")):
        if student is not None:
            tied.setdefault(student, user)
    return set(tied.items()) <= _column(after, "students", "id", "lti_user_id")


def _staff_credentials(before: Rows, after: Rows) -> bool:
    """The instructor link and the staff's launch keys are the first instructor's
    credentials since the course migration."""
    settings = dict(_column(before, "service_settings", "key", "value"))
    links = {settings["instructor_hash"]} if "instructor_hash" in settings else set()
    launched = {token for token, student in _column(before, "launch_keys", "token_hash",
                                                      "student_id") if student is None}
    return links | launched <= {token for (token,) in
                                _column(after, "staff_credentials", "token_hash")}


# The columns a migration moved, where to find them now, and how to check them;
# the rows it moved to another table (which rows, and how to check them).
MOVED = {("lti_users", "student_id"): ("students.lti_user_id", _tied_students)}
MOVED_ROWS = [
    (lambda table, row: (table == "service_settings" and row["key"] == "instructor_hash")
     or (table == "launch_keys" and row["student_id"] is None), _staff_credentials)]


def onto_postgresql(source: Engine, url: str, revision: str) -> None:
    """The term's rows into a PostgreSQL database at the term's revision, its id
    sequences past them, as that release's service would have left it."""
    target = db.connect(url)
    db.migrate(target, revision)
    found, made = MetaData(), MetaData()
    found.reflect(source)
    made.reflect(target)
    with source.connect() as reading, target.begin() as writing:
        for table in made.sorted_tables:
            if table.name in found.tables and table.name != "alembic_version":
                kept = [dict(row._mapping) for row in reading.execute(
                    select(found.tables[table.name]))]
                if kept:
                    writing.execute(table.insert(), kept)
                if "id" in table.columns and table.columns["id"].autoincrement:
                    writing.execute(text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                        f"(SELECT max(id) FROM {table.name})) WHERE EXISTS "
                        f"(SELECT 1 FROM {table.name})"))
    target.dispose()


def upgraded(term: Path, data: Path, url: str | None) -> str:
    """``minimax-grader db upgrade`` as the units run it: what it said."""
    command = [COMMAND, "db", "upgrade", "--data", str(data)]
    done = subprocess.run(command + (["--database", url] if url else []), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("term", TERMS, ids=[term.name for term in TERMS])
def test_a_previous_releases_term_opens_with_every_row(term, database, tmp_path,  # noqa: F811
                                                        sandbox):
    facts = json.loads((term / "term.json").read_text(encoding="utf-8"))
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copy(term / "grader.sqlite3", data)
    shutil.copytree(term / "files", data / "files")
    kept = db.connect(db.sqlite_url(data))
    before = rows(kept)
    assert db.revision(kept) == facts["revision"]
    if database is not None:
        onto_postgresql(kept, database, facts["revision"])
        assert rows(db.connect(database)) == before  # the same term on both
    kept.dispose()
    url = database or db.sqlite_url(data)

    said = upgraded(term, data, database)
    assert said.strip() in (f"the database is at revision {HEAD}: up to date",
                            f"the database was upgraded from revision {facts['revision']} "
                            f"to {HEAD}")
    after = rows(db.connect(url))
    for table, (columns, old) in before.items():
        assert table in after, f"{table} is gone"
        now_columns, now = after[table]
        kept = [name for name in columns if (table, name) not in MOVED]
        shown = {tuple(row[now_columns.index(name)] for name in kept) for row in now}
        was = {tuple(row[columns.index(name)] for name in kept) for row in old
               if not any(moved(table, dict(zip(columns, row, strict=True)))
                          for moved, _ in MOVED_ROWS)}
        assert was <= shown, f"{table}: rows lost: {was - shown}"
    for (table, column), (where, check) in MOVED.items():
        if table in before and column in before[table][0]:
            assert check(before, after), f"{table}.{column}: not kept in {where}"
    for _, check in MOVED_ROWS:
        assert check(before, after), check.__doc__

    service = Service(Options(data=data, database=database), sandbox=sandbox)
    try:
        pages(service, facts)
    finally:
        service.engine.dispose()


def pages(service: Service, facts: dict) -> None:
    """The term as its people see it, and a new hand-in graded."""
    client = TestClient(app.build(service), follow_redirects=False)
    links = facts["links"]
    ada = client.get(f"/s/{links['Ada Lovelace']}")
    assert ada.status_code == 200
    assert '<strong class="counted">10/10</strong>' in ada.text
    assert "replaced by a later hand-in" in ada.text
    bob = client.get(f"/s/{links['Bob Babbage']}/attempts/{facts['late']}")
    assert "Partial credit for the tree walk." in bob.text and "late" in bob.text
    assert "Look at max_value" in bob.text and "They are flipped" in bob.text
    assert client.get(f"/s/{links['Cy Inactive']}").status_code == 404  # still inactive
    assert client.get("/s/launch-key").status_code == 200  # the LTI launch's link
    assert client.get(f"/i/{facts['instructor']}").status_code == 303
    gradebook = client.get("/i/c/1").text  # the term is the first course
    assert "Ada Lovelace" in gradebook and "Bob Babbage" in gradebook
    assert "manual" in gradebook
    assert "https://lms.example.edu" in client.get("/i/c/1/lti").text

    # The rules kept hold (helpers' hard deadline is past); another exercise takes a hand-in.
    [solution] = solutions.reference_folder("decision").iterdir()
    page = client.get(f"/s/{links['Ada Lovelace']}").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf, page
    for exercise, files in (("helpers", (NAME, FULL_MARKS.read_bytes())),
                            ("decision", (solution.name, solution.read_bytes()))):
        handed = client.post(f"/s/{links['Ada Lovelace']}/submit/{exercise}",
                             data={"csrf": csrf.group(1)}, files=[("files", files)])
        assert handed.status_code == (403 if exercise == "helpers" else 303), handed.text
    assert service.jobs.drain() == 1
    [student] = [each for each in service.students.of_course(1) if each.name == "Ada Lovelace"]
    [attempt] = service.students.attempts(student.id, "decision")
    assert attempt.reports[0].score == attempt.reports[0].max_score
