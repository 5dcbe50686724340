"""``minimax-grader serve`` as a process, under faults: killed (SIGKILL) in the
middle of an upload and in the middle of a grading, and fed bad input over
real HTTP. After each, the database and the store hold whole submissions or
none at all."""

import io
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import zipfile
import zlib
from pathlib import Path
from typing import IO

import httpx2
import pytest
from sqlalchemy import Engine, text

from grader.sandbox.local import kill_leftovers
from grader.service import db, store
from tests.service.conftest import FULL_MARKS, NAME, open_served
from tests.service.held import held, letting_go, under_way
from tests.service.postgres_server import database, free_port, postgres, until  # noqa: F401

pytestmark = pytest.mark.timeout(150)  # the waits below are bounded well within it
HTTP_SECONDS = 30  # a loaded machine may answer slowly
MAX_UPLOAD = 2 * 1024 * 1024  # serve's default cap of one request
ROSTER = "name,email\nAda,ada@example.edu\nBob,bob@example.edu\n"


class Server:
    """``serve`` on a data folder, in a session of its own (so that a SIGKILL
    takes its grading workers too), with its temporary files kept in the
    test's folder."""

    sandbox = ("--sandbox", "local")  # serve's flags for its sandbox

    def __init__(self, folder: Path, database_url: str | None = None) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.temp = folder / "tmp"
        self.temp.mkdir(exist_ok=True)
        self.database = database_url
        self.tokens: dict[str, str] = {}
        self.process: subprocess.Popen[str] | None = None
        self.engine: Engine = db.connect(database_url or db.sqlite_url(self.data))

    def start(self, roster: bool = False) -> "Server":
        self.port = free_port()
        command = [str(Path(sys.executable).parent / "minimax-grader"), "serve",
                   "--data", str(self.data), "--port", str(self.port), *self.sandbox]
        if self.database:
            command += ["--database", self.database]
        if roster:
            (self.folder / "roster.csv").write_text(ROSTER, encoding="utf-8")
            command += ["--roster", str(self.folder / "roster.csv")]
        self.out: list[str] = []
        self.err: list[str] = []
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, start_new_session=True,
                                        env={**os.environ, "TMPDIR": str(self.temp)})
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=_collect, args=(stream, lines), daemon=True).start()
        # The links are printed, and then uvicorn says it listens.
        until(lambda: self.process.poll() is not None or (
            "Uvicorn running on" in "".join(self.err) and "login link" in "".join(self.out)),
            45, "serve listens")
        assert self.process.poll() is None, "".join(self.err)
        for line in self.out:
            found = re.match(r"(\w+) <.*>: http://\S+/s/([\w-]+)$", line.strip())
            if found:
                self.tokens[found.group(1)] = found.group(2)
            login = re.search(r"login link .*/i/([\w-]+)$", line.strip())
            if login:  # the first start: its exercises are opened, as the instructor would
                open_served(self.url, login.group(1))
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL the server and all of its session, as a crash would; then the
        sandbox workers, which run in sessions of their own."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        for work in self.temp.glob("minimax-grader-*"):
            kill_leftovers(work)

    def count(self, table: str) -> int:
        with self.engine.connect() as connection:
            return connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()

    def job_states(self) -> list[str]:
        with self.engine.connect() as connection:
            return list(connection.execute(text("SELECT state FROM jobs ORDER BY id")).scalars())

    def stored(self) -> list[Path]:
        """The store's files, temporary ones too."""
        return sorted((self.data / "files").glob("*/*"))

    def csrf(self, token: str) -> str:
        page = httpx2.get(f"{self.url}/s/{token}", timeout=HTTP_SECONDS)
        found = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert found, page.text
        return found.group(1)


def _collect(stream: IO[str], lines: list[str]) -> None:
    for line in stream:
        lines.append(line)


@pytest.fixture
def server(tmp_path):
    started: list[Server] = []

    def make(database_url: str | None = None) -> Server:
        started.append(Server(tmp_path, database_url))
        return started[-1]

    yield make
    for each in started:
        if each.process and each.process.poll() is None:
            each.kill()
        each.engine.dispose()


def multipart(fields: dict[str, str], files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    """A form's body, written by hand so that file names go as given: (body, type)."""
    boundary = "minimax-grader-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
             f"{value}\r\n".encode() for name, value in fields.items()]
    parts += [f'--{boundary}\r\nContent-Disposition: form-data; name="files"; '
              f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
              + data + b"\r\n" for name, data in files]
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), \
        f"multipart/form-data; boundary={boundary}"


def hand_in(server: Server, token: str, files: list[tuple[str, bytes]],
            csrf: str | None = None) -> httpx2.Response:
    body, kind = multipart({"csrf": server.csrf(token) if csrf is None else csrf}, files)
    return httpx2.post(f"{server.url}/s/{token}/submit/helpers", content=body,
                       headers={"content-type": kind}, timeout=HTTP_SECONDS)


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def forged_bomb() -> bytes:
    """50 MB of one byte, in a zip whose headers say 100 bytes (with their CRC)."""
    body = bytearray(zipped({NAME: b"#" * (50 << 20)}))
    central = body.rfind(b"PK\x01\x02")
    for crc, size in ((14, 22), (central + 16, central + 24)):
        body[crc:crc + 4] = struct.pack("<I", zlib.crc32(b"#" * 100))
        body[size:size + 4] = struct.pack("<I", 100)
    return bytes(body)


def assert_nothing_half_stored(server: Server) -> None:
    """Every submission has its files, and each file is in the store; no temporary file
    of the store is left or counted."""
    with server.engine.connect() as connection:
        bare = connection.execute(text(
            "SELECT count(*) FROM submissions s WHERE NOT EXISTS "
            "(SELECT 1 FROM submission_files f WHERE f.submission_id = s.id)")).scalar_one()
        names = set(connection.execute(text("SELECT sha256 FROM submission_files")).scalars())
    assert bare == 0
    on_disk = {path.name for path in server.stored()}
    assert names <= on_disk and not any(name.startswith(".") for name in on_disk)


def test_a_server_killed_in_an_upload_stores_none_of_it(server):
    first = server().start(roster=True)
    ada = first.tokens["Ada"]
    body, kind = multipart({"csrf": first.csrf(ada)},
                           [(NAME, FULL_MARKS.read_bytes() + b"#" * (MAX_UPLOAD // 2))])
    with socket.create_connection(("127.0.0.1", first.port), timeout=10) as raw:
        raw.sendall(f"POST /s/{ada}/submit/helpers HTTP/1.1\r\nHost: x\r\n"
                    f"Content-Type: {kind}\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        for start in range(0, len(body) // 2, 64 * 1024):  # half of it, and then the crash
            raw.sendall(body[start:start + 64 * 1024])
        first.kill()
    assert first.count("submissions") == 0 and first.stored() == []
    # A crash inside the store's write leaves a temporary file: as if one had, long ago.
    stray = first.data / "files" / "ab" / f"{store.TEMPORARY}crashed"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"half a file")
    os.utime(stray, (0, 0))

    again = server().start()
    assert not stray.exists()  # removed at the start
    assert hand_in(again, ada, [(NAME, FULL_MARKS.read_bytes())]).status_code == 303
    assert again.count("submissions") == again.count("submission_files") == 1
    assert_nothing_half_stored(again)


def test_a_server_killed_while_grading_grades_the_job_after_a_restart(server, tmp_path,
                                                                      database):  # noqa: F811
    first = server(database).start(roster=True)
    ada = first.tokens["Ada"]
    assert hand_in(first, ada, [(NAME, held())]).status_code == 303
    until(lambda: under_way(first.temp), 60, "the grading has begun")
    first.kill()
    assert first.count("reports") == 0 and first.job_states() == ["running"]

    again = server(database).start()
    until(letting_go(again.temp, lambda: again.job_states() == ["done"]), 60,
          "the job is graded after the restart")
    assert again.count("reports") == 1
    page = httpx2.get(f"{again.url}/s/{ada}", timeout=HTTP_SECONDS).text
    assert '<strong class="counted">10/10</strong>' in page
    assert_nothing_half_stored(again)


def test_bad_input_is_refused_and_leaves_nothing(server):
    site = server().start(roster=True)
    ada, bob = site.tokens["Ada"], site.tokens["Bob"]
    assert hand_in(site, ada, [(NAME, FULL_MARKS.read_bytes())]).status_code == 303
    before = {table: site.count(table) for table in ("submissions", "submission_files", "jobs")}
    assert before == {"submissions": 1, "submission_files": 1, "jobs": 1}
    stored = site.stored()

    def refused(response: httpx2.Response, status: int, says: str) -> None:
        assert response.status_code == status, response.text
        assert says in response.text, response.text

    # Someone else's report, a token that is no one's.
    for path in (f"/s/{bob}/attempts/1", "/s/not-a-token"):
        refused(httpx2.get(site.url + path, timeout=HTTP_SECONDS), 404, "There is no such page.")
    body, kind = multipart({"csrf": "x"}, [(NAME, FULL_MARKS.read_bytes())])
    refused(httpx2.post(f"{site.url}/s/not-a-token/submit/helpers", content=body,
                        headers={"content-type": kind}, timeout=HTTP_SECONDS), 404,
            "There is no such page.")
    # Forged forms: no CSRF token, another student's, a made-up one.
    for csrf in ("", site.csrf(bob), "0" * 64):
        refused(hand_in(site, ada, [(NAME, FULL_MARKS.read_bytes())], csrf=csrf), 403,
                "not sent from your page")
    # Too large: said up front, and streamed without a length.
    refused(hand_in(site, ada, [(NAME, b"#" * (MAX_UPLOAD + 1))]), 413, "too large")
    body, kind = multipart({"csrf": site.csrf(ada)}, [(NAME, b"#" * (MAX_UPLOAD + 1))])
    chunks = (body[start:start + 65536] for start in range(0, len(body), 65536))
    refused(httpx2.post(f"{site.url}/s/{ada}/submit/helpers", content=chunks,
                        headers={"content-type": kind}, timeout=HTTP_SECONDS), 413, "too large")
    # Zip bombs: one that says what it unpacks to, one whose header lies.
    refused(hand_in(site, ada, [("a.zip", zipped({NAME: bytes(50 << 20)}))]), 400,
            "the zip unpacks to more than")
    refused(hand_in(site, ada, [("a.zip", forged_bomb())]), 400,
            "unpacks to more than its header says")
    # Paths that leave the folder, in a zip and as the uploaded file's name.
    for path in (f"../{NAME}", f"/tmp/{NAME}", f"..\\{NAME}"):
        refused(hand_in(site, ada, [("a.zip", zipped({path: FULL_MARKS.read_bytes()}))]), 400,
                "points outside the folder")
        refused(hand_in(site, ada, [(path, FULL_MARKS.read_bytes())]), 400,
                "with no folder in it")

    assert {table: site.count(table) for table in before} == before
    assert site.stored() == stored
    assert not list(site.temp.glob("minimax-grader-upload-*"))
    assert_nothing_half_stored(site)
