"""A term kept and brought back: ``minimax-grader backup`` of a service with a
course, students, graded attempts, stored files and LTI keys; ``restore`` into
another folder (and database); the real server started there on another port
gives the same exports, byte for byte. On SQLite and on PostgreSQL."""

import json
import re
import signal
import subprocess
import sys
import tarfile
from pathlib import Path

import httpx2
import pytest
from sqlalchemy import select

from grader.cli import main
from grader.service import db
from grader.service.lti import platforms
from grader.service.models import Report
from tests.service.conftest import FLIPPED, FULL_MARKS, NAME, replaying
from tests.service.postgres_server import database, postgres  # noqa: F401
from tests.service.test_service_serve import free_port

COMMAND = str(Path(sys.executable).parent / "minimax-grader")
EXPORTS = ("/i/c/1/grades.csv", "/i/c/1/canvas.csv", "/lti/jwks.json")


def term(make, graded, data_url: str | None):
    """A service with a course, three students, graded attempts (two of Ada's), an
    LTI key and a published solution."""
    site = make(grade=replaying(graded, FULL_MARKS), database=data_url)
    site.clock.now = db.utcnow()
    ada, bob, eve = site.enrol(("Ada", "ada@example.edu"), ("Bob", "bob@example.edu"),
                               ("Eve", "eve@example.edu"))
    for token, path in ((ada, FULL_MARKS), (bob, FLIPPED), (ada, FLIPPED)):
        assert site.hand_in(token, (NAME, path.read_bytes())).status_code == 303
        site.service.jobs.drain()
    platforms.keys(site.service.sessions, site.clock.now)
    published = site.service.options.data / "published" / "helpers"
    published.mkdir(parents=True)
    (published / NAME).write_bytes(FULL_MARKS.read_bytes())
    return site, (ada, bob, eve)


def exports(get, tokens) -> dict[str, bytes]:
    """What the staff and the students download, as bytes."""
    paths = [*EXPORTS, *(f"/s/{token}/status.json" for token in tokens),
             "/i/c/1/attempts/1/files.zip", "/i/c/1/attempts/3/files.zip"]
    found = {}
    for path in paths:
        answer = get(path)
        assert answer.status_code == 200, path
        found[path] = answer.content
    return found


def reports(url: str) -> list[tuple[int, str]]:
    engine = db.connect(url)
    try:
        with engine.connect() as connection:
            return list(connection.execute(select(Report.id, Report.body).order_by(Report.id)))
    finally:
        engine.dispose()


def served(data: Path, data_url: str | None, secret: str, tokens) -> dict[str, bytes]:
    """The exports of ``minimax-grader serve`` run on ``data`` (and ``data_url``)."""
    port = free_port()
    command = [COMMAND, "serve", "--port", str(port), "--data", str(data), "--sandbox",
               "local", *(["--database", data_url] if data_url else [])]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        said = ""
        while "Uvicorn running on" not in said:
            line = server.stderr.readline()
            assert line, f"serve stopped: {said}"
            said += line
        base = f"http://127.0.0.1:{port}"
        with httpx2.Client(base_url=base, follow_redirects=False, timeout=60) as browser:
            assert browser.get(f"/i/{secret}").status_code == 303  # the same login link
            return exports(browser.get, tokens)
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=60)


@pytest.mark.timeout(600)
def test_a_restored_term_serves_the_same_exports_byte_for_byte(make, graded, database,  # noqa: F811
                                                               request, tmp_path):
    site, tokens = term(make, graded, database)
    client = site.login()
    before = exports(client.get, tokens)
    data = site.service.options.data
    url = database or db.sqlite_url(data)
    kept = tmp_path / "backup"
    assert main(["backup", str(kept), "--data", str(data),
                 *(["--database", database] if database else [])]) == 0
    manifest = json.loads((kept / "manifest.json").read_text())
    assert manifest["counts"]["students"] == 3 and manifest["counts"]["submissions"] == 3
    assert manifest["counts"]["lti_keys"] == 1 and manifest["files"] == 2
    digest = manifest["checksums"][f"published/helpers/{NAME}"]
    assert manifest["checksums"][f"files/{digest[:2]}/{digest}"] == digest  # the same file
    original_reports = reports(url)
    site.service.engine.dispose()

    other = tmp_path / "restored"
    other_url = request.getfixturevalue("postgres").new_database() if database else None
    restore = ["restore", str(kept), "--data", str(other),
               *(["--database", other_url] if other_url else [])]
    assert main(restore) == 0
    assert reports(other_url or db.sqlite_url(other)) == original_reports
    assert (other / "published" / "helpers" / NAME).read_bytes() == FULL_MARKS.read_bytes()
    after = served(other, other_url, site.secret, tokens)
    assert after == before
    assert b"Ada" in after["/i/c/1/grades.csv"] and json.loads(after["/lti/jwks.json"])["keys"]

    assert main(restore) == 1  # a target that holds a term: refused
    assert main([*restore, "--force"]) == 0
    assert reports(other_url or db.sqlite_url(other)) == original_reports


def test_a_backup_as_an_archive_and_what_a_restore_refuses(make, graded, tmp_path, capsys):
    site, _ = term(make, graded, None)
    data = site.service.options.data
    archive = tmp_path / "term.tar.gz"
    assert main(["backup", str(archive), "--data", str(data)]) == 0
    said = capsys.readouterr().out
    assert re.search(r"3 students, 3 attempts, 3 reports, 1 staff, 1 LTI keys, 2 stored "
                     r"files, 1 published solution files", said), said
    assert main(["backup", str(archive), "--data", str(data)]) == 1  # never over one
    assert "a backup goes to a new place" in capsys.readouterr().err

    assert main(["restore", str(archive), "--data", str(tmp_path / "one")]) == 0
    assert f"restored {archive} into {tmp_path / 'one'}: 1 courses, 3 students" in (
        capsys.readouterr().out)

    with tarfile.open(archive) as packed:
        packed.extractall(tmp_path / "unpacked", filter="data")
    unpacked = tmp_path / "unpacked"
    stored = next((unpacked / "files").glob("*/*"))
    stored.write_bytes(b"changed")
    assert main(["restore", str(unpacked), "--data", str(tmp_path / "two")]) == 1
    assert "does not match its manifest" in capsys.readouterr().err
    assert not (tmp_path / "two" / "grader.sqlite3").exists()  # nothing was restored
    assert main(["restore", str(tmp_path / "nothing"), "--data", str(tmp_path / "three")]) == 1
    assert "no such backup" in capsys.readouterr().err
